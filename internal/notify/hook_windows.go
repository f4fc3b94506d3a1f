//go:build windows

package notify

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// shellCommand runs script through cmd.exe as Node's child_process does:
// /d skips AutoRun, /s with the quotes hands cmd.exe the script verbatim
// (Go's own quoting of arguments is not cmd.exe's).
func shellCommand(script string) *exec.Cmd {
	shell := os.Getenv("ComSpec")
	if shell == "" {
		shell = "cmd.exe"
	}
	cmd := exec.Command(shell)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + shell + `" /d /s /c "` + script + `"`}
	return cmd
}

// startTree starts cmd in a Job Object of its own that kills every process
// in it when its last handle closes (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE):
// what the hook starts, in the background too, is in the job, and the job
// ends with the hook, with a timeout, with Close, and with askbridge
// itself, however it ends (the handle closes with the process). The shell
// starts suspended and runs only once it is in the job, so that nothing it
// starts escapes it.
func startTree(cmd *exec.Cmd) (procTree, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
		LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE}}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("setting up the job object: %w", err)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return nil, err
	}
	t := &jobTree{job: job}
	pid := uint32(cmd.Process.Pid)
	if err := assign(job, pid); err != nil {
		cmd.Process.Kill()
		t.end()
		return nil, err
	}
	if err := resume(pid); err != nil {
		t.end()
		return nil, err
	}
	return t, nil
}

func assign(job windows.Handle, pid uint32) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("opening the hook's process: %w", err)
	}
	defer windows.CloseHandle(p)
	if err := windows.AssignProcessToJobObject(job, p); err != nil {
		return fmt.Errorf("putting the hook in its job object: %w", err)
	}
	return nil
}

// resume starts the suspended threads of pid (the one main thread); Go
// closes the thread handle CreateProcess returned, so it is looked up.
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("listing the hook's threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("opening the hook's thread: %w", err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resuming the hook: %w", err)
		}
		resumed++
	}
	if resumed == 0 {
		return fmt.Errorf("resuming the hook: no thread of process %d found", pid)
	}
	return nil
}

// jobTree is a hook's job object.
type jobTree struct {
	job  windows.Handle
	once sync.Once
}

// end kills every process in the job and lets the job go.
func (t *jobTree) end() {
	t.once.Do(func() {
		windows.TerminateJobObject(t.job, 1)
		windows.CloseHandle(t.job)
	})
}
