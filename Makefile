# miti99bot: one bot, two runtimes (AWS Lambda, container), one key-value store.
GO ?= go
# The Go release is go.mod's toolchain line; this machine's own Go ignores it, so it is exported for
# every target (the go command fetches that release from the module proxy the first time).
export GOTOOLCHAIN := $(shell sed -n 's/^toolchain //p' go.mod)
NPM ?= npm

GIT_SHA ?= $(shell git rev-parse --short HEAD 2>/dev/null)
LDFLAGS := -s -w -X github.com/miti99bot/miti99bot/internal/buildinfo.GitSHA=$(GIT_SHA)

# Test servers, built from pinned sources: FerretDB v1.24.2 (tools/ferretdb/go.mod),
# dynalite 4.0.0 (tools/dynalite/package-lock.json) and the AWS Lambda Runtime
# Interface Emulator at the commit below.
FERRETDB_BIN := .testservers/bin/ferretdb
DYNALITE_DIR := tools/dynalite/node_modules/dynalite
RIE_BIN      := .testservers/bin/aws-lambda-rie
LINT_DIR     := tools/lint/node_modules/dockerfile-utils
RIE_VERSION  := v0.0.0-20261030222936-bef5c4ba774d
# The Mini App's chart library, lightweight-charts pinned by tools/webapp/package-lock.json, checked
# against it and copied where the binary embeds it (internal/webapp/page/vendor), with the Go file
# that declares it (internal/webapp/chartlib_gen.go), both gitignored: every target that compiles the
# bot makes them first, and a plain go build without them stops, naming this step.
WEBAPP_ASSETS := internal/webapp/chartlib_gen.go internal/webapp/page/vendor/lightweight-charts.js

.PHONY: webapp-assets miniapp-screenshots help run run-polling build build-lambda tools build-BotFunction docker-build test vet unit lint fuzz vulncheck deps-check testservers test-mongo \
	bench bench-coldstart mongo-local dynamodb-local sam-validate sam-build sam-deploy \
	telegram-webhook telegram-webhook-info telegram-commands cron-status schedules-state schedules-pause schedules-resume \
	migrate-dynamo-to-mongo migrate-rollback migrate-verify migrate-verify-after-cutover

## help: list the targets
help:
	@grep -E '^## ' $(MAKEFILE_LIST) | sed 's/^## /  /'


## run: chat with the whole bot in this terminal (memory store, no token, no Telegram; price and schedule commands call their APIs; LANG_CODE=vi speaks Vietnamese)
run: $(WEBAPP_ASSETS)
	$(GO) run ./cmd/container -console $(if $(LANG_CODE),-lang $(LANG_CODE))

## run-polling: run the bot against Telegram (needs TELEGRAM_BOT_TOKEN; memory store unless configured)
run-polling: $(WEBAPP_ASSETS)
	$(GO) run ./cmd/container

## build: the container binary, into bin/
build: $(WEBAPP_ASSETS)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/miti99bot ./cmd/container

## build-lambda: the arm64 Lambda bootstrap, into bin/lambda/
build-lambda: $(WEBAPP_ASSETS)
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -tags lambda.norpc -trimpath -ldflags "$(LDFLAGS)" -o bin/lambda/bootstrap ./cmd/lambda

# SAM's makefile build method calls this with ARTIFACTS_DIR set.
build-BotFunction: $(WEBAPP_ASSETS)
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -tags lambda.norpc -trimpath -ldflags "$(LDFLAGS)" -o $(ARTIFACTS_DIR)/bootstrap ./cmd/lambda

## tools: the operator's tools, bin/botctl and bin/migrate (the runbooks' botctl and migrate)
tools: $(WEBAPP_ASSETS)
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/botctl ./cmd/botctl
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/migrate ./cmd/migrate

## docker-build: the container image (needs a Docker engine)
docker-build:
	docker build --build-arg GIT_SHA=$(GIT_SHA) -t miti99bot:$(or $(GIT_SHA),dev) .

## mongo-local: a MongoDB 7 on localhost:27017 for local runs (needs Docker; without it, make ferretdb-local)
mongo-local:
	docker run -d --rm --name miti99bot-mongo -p 27017:27017 mongo:7

.PHONY: ferretdb-local

## ferretdb-local: FerretDB (the MongoDB protocol over SQLite, built from tools/ferretdb) on localhost:27017, no Docker
ferretdb-local: $(FERRETDB_BIN)
	@mkdir -p .testservers && rm -f .testservers/ferretdb-local.url
	@$(FERRETDB_BIN) -listen 127.0.0.1:27017 -state .testservers/ferretdb-local -uri-file .testservers/ferretdb-local.url \
		>> .testservers/ferretdb-local.log 2>&1 & pid=$$!; \
	until [ -s .testservers/ferretdb-local.url ]; do \
		kill -0 $$pid 2>/dev/null || { tail -n 1 .testservers/ferretdb-local.log; exit 1; }; sleep 0.1; done; \
	echo $$pid > .testservers/ferretdb-local.pid; \
	echo "FerretDB at $$(cat .testservers/ferretdb-local.url), data in .testservers/ferretdb-local; stop it with: kill $$pid"; \
	echo "the bot refuses FerretDB unless told: export MONGO_ALLOW_FERRETDB=true (a local trial only: its filtered updates are not atomic)"

# What a local run against dynalite needs: dummy credentials, so the SDK
# does not look for real ones, and no EC2 metadata probe (169.254.169.254).
DYNAMODB_LOCAL_ENV := AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:8000 AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local \
	AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true

## dynamodb-local: dynalite on localhost:8000 with the bot's table; prints the export line the bot and the tools need
dynamodb-local: $(DYNALITE_DIR) $(WEBAPP_ASSETS)
	@mkdir -p .testservers
	node tools/dynalite/start.js .testservers/dynalite-local.url 8000 & echo $$! > .testservers/dynalite-local.pid
	@until [ -s .testservers/dynalite-local.url ]; do sleep 0.1; done
	$(DYNAMODB_LOCAL_ENV) $(GO) run ./cmd/botctl table create $(or $(DYNAMODB_TABLE),miti99bot)
	@echo "dynalite pid $$(cat .testservers/dynalite-local.pid); stop it with: kill $$(cat .testservers/dynalite-local.pid)"
	@echo "for the bot and the tools: export $(DYNAMODB_LOCAL_ENV) DYNAMODB_TABLE=$(or $(DYNAMODB_TABLE),miti99bot)"

## sam-validate, sam-build: check and build the AWS deployment (needs the SAM CLI; see docs/deploy-aws.md)
sam-validate:
	sam validate --lint --template template.yaml
sam-build:
	sam build --template template.yaml

.PHONY: sam-deploy-guided

# SchedulesState stays out of samconfig.toml: saved there, every deploy
# would set it again and resume the schedules a cutover paused; left out,
# a deploy keeps the stack's value (sam deploy uses the previous value of
# each parameter it is not given).
UNSAVE_SCHEDULES_STATE = if [ -f samconfig.toml ] && grep -q SchedulesState samconfig.toml; then \
	sed -E -i.bak -e 's/ ?SchedulesState=\\"[A-Za-z]*\\"//' -e 's/"SchedulesState=[A-Za-z]*",? ?//' samconfig.toml && rm -f samconfig.toml.bak && \
	echo "samconfig.toml: SchedulesState left out, so deploys keep the stack's (make schedules-state)"; fi

## sam-deploy-guided: the first AWS deployment: answer SAM's prompts, saved to samconfig.toml (needs credentials)
sam-deploy-guided: sam-build
	sam deploy --guided
	@$(UNSAVE_SCHEDULES_STATE)

## sam-deploy: every later AWS deployment, with samconfig.toml's settings and no prompts; the schedules keep their state
sam-deploy: sam-build
	@test -f samconfig.toml || { echo "no samconfig.toml: run make sam-deploy-guided the first time"; exit 1; }
	@$(UNSAVE_SCHEDULES_STATE)
	sam deploy

## schedules-state, schedules-pause, schedules-resume: the Lambda stack's cron schedules (STACK, default miti99bot)
schedules-state:
	scripts/schedules $(or $(STACK),miti99bot)
schedules-pause:
	scripts/schedules $(or $(STACK),miti99bot) DISABLED
schedules-resume:
	scripts/schedules $(or $(STACK),miti99bot) ENABLED

## telegram-webhook: point Telegram at WEBHOOK_URL (e.g. the stack's FunctionUrl + webhook)
telegram-webhook: $(WEBAPP_ASSETS)
	@test -n "$(WEBHOOK_URL)" || { echo "set WEBHOOK_URL"; exit 1; }
	$(GO) run ./cmd/botctl webhook set $(WEBHOOK_URL)
## telegram-webhook-info: the webhook and Telegram's pending_update_count
telegram-webhook-info: $(WEBAPP_ASSETS)
	$(GO) run ./cmd/botctl webhook info
## cron-status: each cron job's last success, last failure, attempts and next fire, naming the store: read from it, or asked of the running bot at BOT_URL when the file is locked or no store is set
cron-status: $(WEBAPP_ASSETS)
	$(GO) run ./cmd/botctl cron status
## telegram-commands: publish the command menu from the enabled modules
telegram-commands: $(WEBAPP_ASSETS)
	$(GO) run ./cmd/botctl commands sync

# go test starts packages in the order named (./... adds the rest once each): the longest ones first, so
# the simulation's four minutes run beside the others instead of after them.
SLOW_TEST_PKGS := ./internal/sim/ ./e2e/ ./cmd/container/ ./cmd/botctl/

## test: vet, then every test with the race detector against real test servers
test: vet testservers $(WEBAPP_ASSETS)
	scripts/with-testservers $(GO) test -race -count=1 $(SLOW_TEST_PKGS) ./...

vet: $(WEBAPP_ASSETS)
	$(GO) vet ./...

## lint: gofmt, shellcheck the scripts, lint the Dockerfile (CI runs it)
lint: $(LINT_DIR)
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$unformatted" ]; then echo "gofmt -w these:"; echo "$$unformatted"; exit 1; fi
	shellcheck -x scripts/with-testservers scripts/bench-coldstart scripts/fuzz scripts/vulncheck scripts/schedules scripts/toolchain .ci/run
	tools/lint/node_modules/.bin/dockerfile-utils lint Dockerfile

$(LINT_DIR): tools/lint/package.json tools/lint/package-lock.json
	$(NPM) ci --prefix tools/lint --no-audit --no-fund
	touch $(LINT_DIR)

## fuzz: every fuzz target for FUZZTIME each (default 10s; CI runs it); a crash lands in testdata/fuzz as a regression test
fuzz: $(WEBAPP_ASSETS)
	scripts/fuzz $(or $(FUZZTIME),10s)

## vulncheck: govulncheck against an offline copy of the Go vulnerability database (CI runs it)
vulncheck: $(WEBAPP_ASSETS)
	scripts/vulncheck

## deps-check: list the direct dependencies that have a newer release on the module proxy (changes nothing)
deps-check:
	@$(GO) list -m -u -f '{{if and (not .Indirect) (not .Main) .Update}}{{.Path}} {{.Version}} -> {{.Update.Version}}{{end}}' all | grep . \
		|| echo "deps-check: every direct dependency is at its newest release"

## unit: the tests that need no server (integration tests skip under -short)
unit: $(WEBAPP_ASSETS)
	$(GO) test -race -count=1 -short ./...

## webapp-assets: fetch the Mini App's chart library (npm ci in tools/webapp), check it against the lock file, and put it where the binary embeds it
webapp-assets: $(WEBAPP_ASSETS)

$(WEBAPP_ASSETS) &: tools/webapp/package.json tools/webapp/package-lock.json tools/webapp/assets.mjs
	$(NPM) ci --prefix tools/webapp --no-audit --no-fund --ignore-scripts
	node tools/webapp/assets.mjs

## miniapp-screenshots: remake docs/img's screenshots of the Mini App (its browser test, headless Chromium)
miniapp-screenshots: $(WEBAPP_ASSETS)
	MINIAPP_SCREENSHOTS=$(CURDIR)/docs/img $(GO) test -count=1 -run TestThePageShows ./internal/webapp/

## testservers: build FerretDB and the Lambda emulator, install dynalite (make test does this)
testservers: $(FERRETDB_BIN) $(DYNALITE_DIR) $(RIE_BIN)

$(RIE_BIN):
	GOBIN=$(CURDIR)/.testservers/bin $(GO) install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@$(RIE_VERSION)

$(FERRETDB_BIN): tools/ferretdb/main.go tools/ferretdb/go.mod tools/ferretdb/go.sum
	cd tools/ferretdb && $(GO) build -trimpath -o ../../$(FERRETDB_BIN) .

$(DYNALITE_DIR): tools/dynalite/package.json tools/dynalite/package-lock.json
	$(NPM) ci --prefix tools/dynalite --no-audit --no-fund
	touch $(DYNALITE_DIR)

## test-mongo: the MongoDB tests against a real MongoDB, which FerretDB is not
## in one respect (atomic filtered updates). On a machine with Docker:
##   docker run -d --rm -p 27017:27017 mongo:7
##   make test-mongo MONGODB_TEST_URL=mongodb://127.0.0.1:27017
test-mongo: testservers
	@test -n "$(MONGODB_TEST_URL)" || { echo "set MONGODB_TEST_URL to a real MongoDB (see the comment above)"; exit 1; }
	MONGODB_TEST_URL=$(MONGODB_TEST_URL) scripts/with-testservers $(GO) test -race -count=1 ./internal/storage/mongodb/ ./internal/modules/stats/ ./internal/modules/trading/

.PHONY: simulate simulate-long

# A life on a server's store runs under with-testservers, which starts it.
SIM_STORE := $(or $(STORE),memory)
SIM_SERVERS := $(if $(filter mongodb dynamodb,$(SIM_STORE) $(REPLAY)),scripts/with-testservers)
SIM_TEST = $(SIM_SERVERS) $(GO) test -count=1 -timeout 60m -run '^TestSimulate$$' -v ./internal/sim/

## simulate: one seeded life of the bot (SEED, default 1; DAYS, default 30; STORE memory|bolt|mongodb|dynamodb; REPLAY, a store to live it again on and verify against); prints what happened and `history: <digest>`
simulate: $(if $(SIM_SERVERS),testservers) $(WEBAPP_ASSETS)
	$(SIM_TEST) -sim.seed=$(or $(SEED),1) -sim.days=$(or $(DAYS),30) -sim.store=$(SIM_STORE) $(if $(REPLAY),-sim.replay=$(REPLAY))

## simulate-long: 100 simulated days on seeds 1 to 3 (STORE, default bolt)
simulate-long: $(if $(filter mongodb dynamodb,$(STORE)),testservers) $(WEBAPP_ASSETS)
	for seed in 1 2 3; do $(SIM_SERVERS) $(GO) test -count=1 -timeout 60m -run '^TestSimulate$$' -v ./internal/sim/ \
		-sim.seed=$$seed -sim.days=100 -sim.store=$(or $(STORE),bolt) || exit 1; done

## bench: what docs/performance.md reports: storage and core benchmarks (each provider next to its raw driver, the core next to a bare handler), the slow-chat latency, store round trips per update, idle memory, the migration next to a raw copy, the daily push at Telegram's rate, snapshots next to a raw copy and /ping while one runs
bench: testservers $(WEBAPP_ASSETS)
	scripts/with-testservers $(GO) test -run '^$$' -bench . -benchmem ./internal/storage/... ./internal/core/
	scripts/with-testservers $(GO) test -run '^$$' -bench Migrate100k -benchtime 4x ./cmd/migrate/
	$(GO) test -run '^$$' -bench SnapshotFile100k -benchtime 20x ./internal/backup/
	$(GO) test -run '^$$' -bench PingWhileSnapshotting -benchtime 40x ./internal/backup/
	scripts/with-testservers $(GO) test -run '^$$' -bench SnapshotServer100k -benchtime 3x ./internal/backup/
	$(GO) test -run '^$$' -bench 'DailyPush1000|DailyPush10kScaled' -benchtime 1x ./internal/modules/lolschedule/
	$(GO) test -run '^$$' -bench PingBehindASlowChat -benchtime 3x ./internal/poller/
	$(GO) test -run '^$$' -bench LongPollLatency -benchtime 3000x -count 5 ./internal/poller/
	$(GO) test -count=1 -run RoundTrips -v ./internal/core/ | grep 'round trips'
	$(GO) test -run '^$$' -bench IdleRSS -benchtime 1x ./cmd/container/

## bench-coldstart: the Lambda bootstrap's cold first invocation next to a hello-world one, under the emulator (memory store and DynamoDB)
bench-coldstart: testservers $(WEBAPP_ASSETS)
	scripts/with-testservers scripts/bench-coldstart

## migrate-dynamo-to-mongo: copy every item from DYNAMODB_TABLE into MONGO_URL/MONGO_DATABASE; after a rollback it refuses and names the mirror to run (see docs/migration.md)
migrate-dynamo-to-mongo:
	$(GO) run ./cmd/migrate --from dynamodb --to mongodb

## migrate-rollback: the one rollback path, the mirror of MongoDB onto DYNAMODB_TABLE (deletions too): lists what it would delete; CONFIRM="dynamodb table <name>" runs it
migrate-rollback:
	$(GO) run ./cmd/migrate --from mongodb --to dynamodb --mirror $(if $(CONFIRM),--confirm-target "$(CONFIRM)",--dry-run)

## migrate-verify: is MongoDB an exact copy of DynamoDB? per module and per item; exits non-zero on any difference
migrate-verify:
	$(GO) run ./cmd/migrate --from dynamodb --to mongodb --verify

## migrate-verify-after-cutover: was anything of DynamoDB lost or rolled back on MongoDB since the last copy or mirror into it? (refuses once rolled back)
migrate-verify-after-cutover:
	$(GO) run ./cmd/migrate --from dynamodb --to mongodb --verify-after-cutover
