package sim

import (
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

// boot puts the bot on p, behind a fresh outage switch and the keyspace
// recorder. A cutover, a rollback and a restore boot again, as the
// operator starts the other deployment: every process of the old one is
// stopped, and the runtime of the stretch starts anew on p; nothing but
// the store carries over.
func (l *life) boot(p storage.KVProvider) {
	l.t.Helper()
	l.store = storagetest.NewSwitch(&recorder{KVProvider: p, ks: l.keys})
	if l.front == nil {
		return // the first boot: startProcesses starts the first process
	}
	l.stopDeployment()
	l.app = l.serving(l.rt).app
}

// stopDeployment stops every process of the deployment serving now (a
// poller waited for, what it handled confirmed), as the runbooks do before
// any data moves: nothing of it writes while the migrator reads.
func (l *life) stopDeployment() {
	polled := false
	for _, ps := range []*[nRuntimes]*proc{&l.live, &l.replicas} {
		for i, old := range ps {
			if old != nil && old.stop != nil {
				old.stop()
				<-old.ran
				polled = true
			}
			ps[i] = nil
		}
	}
	if polled {
		l.confirmAll() // what the stopped poller handled, as switchRuntime does
	}
}
