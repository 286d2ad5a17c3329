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
