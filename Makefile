# miti99bot: one bot, two runtimes (AWS Lambda, container), one key-value store.
GO ?= go
NPM ?= npm

GIT_SHA ?= $(shell git rev-parse --short HEAD 2>/dev/null)
LDFLAGS := -s -w -X github.com/miti99bot/miti99bot/internal/buildinfo.GitSHA=$(GIT_SHA)

# Test servers, built from pinned sources: FerretDB v1.24.2 (tools/ferretdb/go.mod),
# dynalite 4.0.0 (tools/dynalite/package-lock.json) and the AWS Lambda Runtime
# Interface Emulator at the commit below.
FERRETDB_BIN := .testservers/bin/ferretdb
DYNALITE_DIR := tools/dynalite/node_modules/dynalite
RIE_BIN      := .testservers/bin/aws-lambda-rie
RIE_VERSION  := v0.0.0-20261030222936-bef5c4ba774d

.PHONY: run run-polling build build-lambda test vet unit testservers test-mongo bench bench-coldstart migrate-dynamo-to-mongo migrate-mongo-to-dynamo migrate-verify

## run: chat with the whole bot in this terminal (memory store, no token, no network)
run:
	$(GO) run ./cmd/container -console

## run-polling: run the bot against Telegram (needs TELEGRAM_BOT_TOKEN; memory store unless configured)
run-polling:
	$(GO) run ./cmd/container

## build: the container binary, into bin/
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/miti99bot ./cmd/container

## build-lambda: the arm64 Lambda bootstrap, into bin/lambda/
build-lambda:
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -tags lambda.norpc -trimpath -ldflags "$(LDFLAGS)" -o bin/lambda/bootstrap ./cmd/lambda

## test: vet, then every test with the race detector against real test servers
test: vet testservers
	scripts/with-testservers $(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

## unit: the tests that need no server (integration tests skip under -short)
unit:
	$(GO) test -race -count=1 -short ./...

## testservers: build FerretDB and install dynalite (make test does this)
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
	MONGODB_TEST_URL=$(MONGODB_TEST_URL) scripts/with-testservers $(GO) test -race -count=1 ./internal/storage/mongodb/ ./internal/modules/stats/

## bench: the storage benchmarks with allocations, each provider next to its raw driver
bench: testservers
	scripts/with-testservers $(GO) test -run '^$$' -bench . -benchmem ./internal/storage/... ./internal/app/

## bench-coldstart: the Lambda bootstrap's cold first invocation next to a hello-world one, under the emulator
bench-coldstart: testservers
	scripts/bench-coldstart

## migrate-dynamo-to-mongo: copy every item from DYNAMODB_TABLE into MONGO_URL/MONGO_DATABASE (see docs/migration.md)
migrate-dynamo-to-mongo:
	$(GO) run ./cmd/migrate --from dynamodb --to mongodb

## migrate-mongo-to-dynamo: the reverse path, for a rollback
migrate-mongo-to-dynamo:
	$(GO) run ./cmd/migrate --from mongodb --to dynamodb

## migrate-verify: compare DynamoDB and MongoDB per module and per item; exits non-zero on any difference
migrate-verify:
	$(GO) run ./cmd/migrate --from dynamodb --to mongodb --verify
