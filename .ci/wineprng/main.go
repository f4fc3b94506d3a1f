// Command wineprng writes bcryptprimitives.dll for a Wine prefix: Go 1.24
// and later call ProcessPrng from that DLL at startup, and Debian 12's Wine
// 8.0 has no such DLL, so every Go program for Windows dies under it with
// "bcryptprimitives.dll not found". The DLL written here holds no code: its
// one export, ProcessPrng, forwards to advapi32's SystemFunction036
// (RtlGenRandom), which fills a buffer with random bytes the same way and
// returns a BOOLEAN that Go reads as ProcessPrng's BOOL (it tests the low
// byte).
//
// Usage: go run ./.ci/wineprng -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "bcryptprimitives.dll", "where to write the DLL")
	flag.Parse()
	if err := os.WriteFile(*out, forwarderDLL("bcryptprimitives.dll", "ProcessPrng", "advapi32.SystemFunction036"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wineprng:", err)
		os.Exit(1)
	}
}

// The image's layout: headers in the file's first 0x200 bytes, one section
// holding the export directory at RVA 0x1000, file offset 0x200.
const (
	fileAlign = 0x200
	sectAlign = 0x1000
	edataRVA  = 0x1000
)

// forwarderDLL is a PE32+ (x86-64) DLL named dll that exports name as a
// forwarder to target ("module.function").
func forwarderDLL(dll, name, target string) []byte {
	// The export section: directory, address table, name table, ordinal
	// table, then the strings. An address inside the export directory's
	// range is a forwarder string, not code.
	const dirSize = 40
	eat := edataRVA + dirSize
	names := eat + 4
	ords := names + 4
	strs := ords + 2
	dllRVA := strs
	nameRVA := dllRVA + len(dll) + 1
	targetRVA := nameRVA + len(name) + 1
	end := targetRVA + len(target) + 1

	var sec bytes.Buffer
	le := func(v any) { binary.Write(&sec, binary.LittleEndian, v) }
	le([4]uint32{0, 0, 0, uint32(dllRVA)}) // characteristics, time stamp, version, name
	le([6]uint32{1, 1, 1, uint32(eat), uint32(names), uint32(ords)})
	le(uint32(targetRVA))
	le(uint32(nameRVA))
	le(uint16(0))
	for _, s := range []string{dll, name, target} {
		sec.WriteString(s)
		sec.WriteByte(0)
	}
	size := end - edataRVA
	raw := (size + fileAlign - 1) &^ (fileAlign - 1)

	var img bytes.Buffer
	w := func(v any) { binary.Write(&img, binary.LittleEndian, v) }
	// DOS header: only the magic and the offset of the PE header matter.
	dos := make([]byte, 0x40)
	copy(dos, "MZ")
	binary.LittleEndian.PutUint32(dos[0x3c:], 0x40)
	img.Write(dos)
	img.WriteString("PE\x00\x00")
	// COFF header: x86-64, one section, a 240-byte optional header,
	// executable image | large address aware | DLL.
	w(uint16(0x8664))
	w(uint16(1))
	w([3]uint32{0, 0, 0})
	w(uint16(240))
	w(uint16(0x2022))
	// PE32+ optional header.
	w(uint16(0x20b))
	w([2]uint8{14, 0})                 // linker version
	w([3]uint32{0, uint32(raw), 0})    // sizes of code, initialised and uninitialised data
	w([2]uint32{0, edataRVA})          // no entry point; base of code
	w(uint64(0x180000000))             // image base
	w([2]uint32{sectAlign, fileAlign}) // alignments
	w([6]uint16{6, 0, 0, 0, 6, 0})     // OS, image and subsystem versions
	w(uint32(0))                       // Win32VersionValue
	w(uint32(edataRVA + sectAlign))    // size of image
	w(uint32(fileAlign))               // size of headers
	w(uint32(0))                       // checksum
	w(uint16(3))                       // subsystem: console
	w(uint16(0x0160))                  // dynamic base, NX compatible, high-entropy VA
	w([4]uint64{0x100000, 0x1000, 0x100000, 0x1000})
	w(uint32(0))  // loader flags
	w(uint32(16)) // data directories
	w([2]uint32{edataRVA, uint32(size)})
	for range 15 {
		w([2]uint32{0, 0})
	}
	// The one section header.
	var secName [8]byte
	copy(secName[:], ".edata")
	img.Write(secName[:])
	w([4]uint32{uint32(size), edataRVA, uint32(raw), fileAlign})
	w([3]uint32{0, 0, 0}) // relocations, line numbers, their counts
	w(uint32(0x40000040)) // initialised data, readable
	img.Write(make([]byte, fileAlign-img.Len()))
	img.Write(sec.Bytes())
	img.Write(make([]byte, raw-sec.Len()))
	return img.Bytes()
}
