package proctree

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Job is a Windows Job Object holding a process and everything it starts.
// It is set to kill everything in it when its last handle closes; its
// owner holds the only one (not inheritable), so when the owner exits,
// however it ends, Windows closes the handle and ends the tree.
type Job struct {
	mu sync.Mutex
	h  windows.Handle // 0 once closed
}

// StartJob starts cmd suspended in a new kill-on-close Job, and lets it
// run only once it is in it, so that nothing it starts escapes. cmd's own
// creation flags are kept. When cmd started but could not join the job,
// it is killed and waited for before StartJob returns the error.
func StartJob(cmd *exec.Cmd) (*Job, error) {
	j, err := newJob()
	if err != nil {
		return nil, err
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
	if err := cmd.Start(); err != nil {
		j.Close()
		return nil, err
	}
	if err := j.admit(uint32(cmd.Process.Pid)); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		j.Close()
		return nil, fmt.Errorf("putting process %d in a job object: %w", cmd.Process.Pid, err)
	}
	return j, nil
}

// newJob creates a job that ends its processes when its last handle
// closes.
func newJob() (*Job, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("setting kill-on-close on a job object: %w", err)
	}
	return &Job{h: h}, nil
}

// admit assigns the suspended process pid to the job, then lets it run.
func (j *Job) admit(pid uint32) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(p)
	if err := windows.AssignProcessToJobObject(j.h, p); err != nil {
		return err
	}
	return resumeThreads(pid)
}

// resumeThreads resumes the threads of a process created suspended (its
// one thread; os/exec keeps no handle to it).
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	entry := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &entry); err == nil; err = windows.Thread32Next(snap, &entry) {
		if entry.OwnerProcessID != pid {
			continue
		}
		t, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, entry.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(t)
		windows.CloseHandle(t)
		if err != nil {
			return err
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("found no thread of the process to resume")
	}
	return nil
}

// Terminate ends every process in the job now.
func (j *Job) Terminate() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return errClosed
	}
	return windows.TerminateJobObject(j.h, 1)
}

// errClosed: the job was closed, and what was in it ended with it.
var errClosed = errors.New("the job object is closed")

// Active is the number of processes still running in the job (-1 when it
// cannot be told).
func (j *Job) Active() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	var info jobAccounting
	if j.h == 0 {
		return 0
	}
	if err := windows.QueryInformationJobObject(j.h, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return -1
	}
	return int(info.ActiveProcesses)
}

// Close lets the job go, which (kill-on-close) ends anything still in it.
// It may be called more than once.
func (j *Job) Close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h != 0 {
		windows.CloseHandle(j.h)
		j.h = 0
	}
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which x/sys
// does not define.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}
