// Package e2e runs both runtimes side by side: the same conversation through
// the container and through Lambda must leave the same replies and the same
// state, and during a cutover (both running over one store) a cron slot
// runs once.
package e2e
