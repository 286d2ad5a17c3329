// Package e2e runs both runtimes side by side: the same conversation through
// the container and through Lambda must leave the same replies and the same
// state; during a cutover (both running over one store) a cron slot runs
// once; and the cutover runbook itself (Lambda on DynamoDB, copy, the
// container on MongoDB, verify after the cutover, rerun, rollback by mirror,
// Lambda again) loses, rolls back and resurrects nothing.
package e2e
