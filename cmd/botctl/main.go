// Command botctl is the operator's tool: the Telegram webhook, the command
// menu, manual cron runs, backups and repairs of damaged items, configured by the bot's own environment (and
// SSM parameter names).
//
//	botctl webhook set <url>            point Telegram at <url> with TELEGRAM_WEBHOOK_SECRET
//	botctl webhook delete [-drop-pending]
//	botctl webhook info                 url and pending_update_count
//	botctl commands sync                setMyCommands from the enabled modules
//	botctl cron run <name> [-url <base>] [-scheduled T]
//	                                    POST <base>/cron/<name> with CRON_SHARED_SECRET (https, or http on loopback;
//	                                    default $BOT_URL); -scheduled T runs the slot T (RFC 3339) a pause or an outage held
//	botctl cron status [-url <base>]    each job's last success, last failure, attempts, next fire, naming the store;
//	                                    the running bot answers (GET <base>/cron/status) when the store is locked or unset
//	botctl table create <name>          a DynamoDB table, for dynalite
//	botctl backup create -o <file>      a snapshot of the configured store (docs/backup.md)
//	botctl backup restore <file> [-replace] [-dry-run] [-tmp <dir>]
//	                                    restore it into the configured store, checked and verified; -tmp: where the
//	                                    file store's payload is unpacked
//	botctl store scan                   the stored items that cannot be read (the bot's reports, broken bytes)
//	botctl store show <module> <key>    one item as held: size, fingerprint, why it does not decode, its bytes
//	botctl store quarantine <module> <key>
//	                                    move a damaged item aside into the quarantine namespace
//	botctl store delete <module> <key>  delete it
//
// Each answers -h or --help with its usage, exit code 0, and does nothing else.
package main

import "github.com/miti99bot/miti99bot/internal/cmdmain"

func main() { cmdmain.Main("botctl", run) }
