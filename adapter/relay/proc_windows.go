package relay

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// job is the agent's Job Object. The agent starts suspended, joins the job
// before it runs a single instruction, and every process it starts joins
// it too. The job is set to kill everything in it when its last handle
// closes; askbridge holds the only one (not inheritable), so when askbridge
// exits, however it ends, Windows closes the handle and ends the tree.
type job struct {
	h    windows.Handle // 0 when the agent could not be put in a job
	pid  int
	proc *os.Process
}

func startTree(cmd *exec.Cmd) (procTree, error) {
	// A console process group of its own, as Setpgid on Unix: a Ctrl-C in
	// askbridge's console is askbridge's to handle.
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP}
	h, err := newKillOnCloseJob()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	j := &job{h: h, pid: cmd.Process.Pid, proc: cmd.Process}
	if err := j.admit(); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		windows.CloseHandle(h)
		return nil, fmt.Errorf("putting the agent in a job object: %w", err)
	}
	return j, nil
}

// newKillOnCloseJob creates a job that ends its processes when its last
// handle closes.
func newKillOnCloseJob() (windows.Handle, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return 0, fmt.Errorf("setting kill-on-close on a job object: %w", err)
	}
	return h, nil
}

// admit assigns the suspended agent to the job, then lets it run.
func (j *job) admit() error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(j.pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(p)
	if err := windows.AssignProcessToJobObject(j.h, p); err != nil {
		return err
	}
	return resumeThreads(uint32(j.pid))
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
		return errors.New("found no thread of the agent to resume")
	}
	return nil
}

// terminate sends CTRL_BREAK to the agent's console process group, which
// node and most runtimes take as a request to exit. It fails, harmlessly,
// when askbridge has no console (an editor started it without one); stdin
// closing was the gentle request then, and kill follows.
func (j *job) terminate() {
	windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(j.pid))
}

func (j *job) kill() {
	if windows.TerminateJobObject(j.h, 1) != nil {
		j.proc.Kill()
	}
}

// reap ends what the agent left in the job, then closes the job (which,
// being kill-on-close, ends anything that joined meanwhile). Windows has no
// gentler way to ask a process without a console or a window to exit, so
// the grace is only for the processes to be gone.
func (j *job) reap(grace time.Duration) {
	defer windows.CloseHandle(j.h)
	if j.active() == 0 {
		return
	}
	windows.TerminateJobObject(j.h, 1)
	deadline := time.Now().Add(grace)
	for j.active() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

// active is the number of processes still running in the job (-1 when it
// cannot be told).
func (j *job) active() int {
	var info jobAccounting
	if err := windows.QueryInformationJobObject(j.h, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return -1
	}
	return int(info.ActiveProcesses)
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which x/sys
// does not define.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}
