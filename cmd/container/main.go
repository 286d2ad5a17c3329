// Command container runs miti99bot as a long-lived process: long polling,
// the in-process cron and the HTTP surface (health, cron route). With
// -console it runs the whole bot in a terminal instead, with no token and no
// network.
package main

import "github.com/miti99bot/miti99bot/internal/cmdmain"

func main() { cmdmain.Main("miti99bot", run) }
