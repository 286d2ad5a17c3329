// Command migrate copies every item from one storage backend to another
// (dynamodb <-> mongodb, or between two tables or databases of one kind) and
// verifies the result item by item. See docs/migration.md.
package main

import "github.com/miti99bot/miti99bot/internal/cmdmain"

func main() { cmdmain.Main("migrate", run) }
