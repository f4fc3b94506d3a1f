package pairing

import (
	"errors"
	"fmt"
	"os"
)

// Read is the devices kept at path, sealed with key, for a reader only
// (askbridge hub log --verify): unlike Open it never moves a refused file
// aside, and keeps no handle to write back. None there: no devices.
func Read(path string, key []byte) ([]Device, error) {
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("the paired devices: %w", err)
	}
	devs, err := unseal(key, b)
	if err != nil {
		return nil, fmt.Errorf("the paired devices %s: %w", path, err)
	}
	out := make([]Device, len(devs))
	for i, d := range devs {
		out[i] = *d
		out[i].Hash = nil
	}
	return out, nil
}
