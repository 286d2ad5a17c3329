// Starts dynalite in memory on a loopback port and writes its URL to a file,
// so the caller can use a free port the kernel picked (no port races).
// Usage: node start.js <url-file> [port]
'use strict'
const fs = require('fs')
const dynalite = require('dynalite')

const [urlFile, port = '0'] = process.argv.slice(2)
if (!urlFile) {
  console.error('usage: node start.js <url-file> [port]')
  process.exit(2)
}
// dynalite rethrows a request's 'error' event, so a client killed mid-request
// (the migrator's and the container's SIGKILL tests do exactly that) took the
// whole server down, failing every later test against it
// (architect/dynalite#183). A real DynamoDB shrugs an aborted request off; so
// does this one. Any other uncaught error still ends the process.
process.on('uncaughtException', (err) => {
  if (err && err.code === 'ECONNRESET' && err.message === 'aborted') {
    console.error('dynalite: a client aborted its request; ignored')
    return
  }
  console.error(err)
  process.exit(1)
})

const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })
server.listen(Number(port), '127.0.0.1', (err) => {
  if (err) throw err
  const url = `http://127.0.0.1:${server.address().port}`
  fs.writeFileSync(urlFile + '.tmp', url + '\n')
  fs.renameSync(urlFile + '.tmp', urlFile)
  console.error('dynalite listening:', url)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
