package backup

import "syscall"

// ioprio_set(2): who is one thread; class 3 is idle, served when the disk
// has nothing else to do.
const (
	ioprioWhoProcess = 1
	ioprioClassIdle  = 3 << 13
)

// lowPriority makes the calling thread the least urgent: nice 19, and the
// idle I/O class. Refused, it leaves the thread as it was: a snapshot at
// normal priority is still a snapshot.
func lowPriority() {
	tid := syscall.Gettid()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19)
	_, _, _ = syscall.Syscall(syscall.SYS_IOPRIO_SET, ioprioWhoProcess, uintptr(tid), ioprioClassIdle)
}
