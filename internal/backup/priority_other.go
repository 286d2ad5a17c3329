//go:build !linux

package backup

// lowPriority does nothing where threads have no priority of their own to
// set: the pacing alone keeps the snapshot's share down.
func lowPriority() {}
