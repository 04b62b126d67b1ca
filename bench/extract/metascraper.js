// Runs metascraper over the pages a JSON list names and prints, as JSON,
// each page's fields and the seconds each timed pass over all of them
// took. compare.py installs metascraper beside this script's working
// folder and runs it with node; see compare.py for why each option.
//
//   node metascraper.js LIST.json ROUNDS
'use strict'

const fs = require('fs')

const metascraper = require('metascraper')([
  require('metascraper-title')(),
  require('metascraper-description')(),
  require('metascraper-author')(),
  // The published and modified dates each on their own: metascraper's
  // single `date` prefers the modified date.
  require('metascraper-date')({ datePublished: true, dateModified: true }),
  require('metascraper-publisher')(),
  require('metascraper-lang')()
])

async function pass (pages) {
  const out = []
  for (const p of pages) out.push(await metascraper({ html: p.html, url: p.url }))
  return out
}

async function main () {
  const list = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
  const rounds = Number(process.argv[3] || 3)
  // Bytes as the page's own charset says is the caller's job: compare.py
  // hands over UTF-8 text it decoded the way a browser would.
  const pages = list.map(p => ({ url: p.url, html: fs.readFileSync(p.text, 'utf8') }))
  const results = await pass(pages) // the scored pass, also a warm-up
  const seconds = []
  for (let r = 0; r < rounds; r++) {
    // CPU time of the whole process (its helper threads too), as the
    // other tools are timed, so the shared machine's load counts less.
    const t0 = process.cpuUsage()
    await pass(pages)
    const t = process.cpuUsage(t0)
    seconds.push((t.user + t.system) / 1e6)
  }
  process.stdout.write(JSON.stringify({ results, seconds }))
}

main().catch(e => { console.error(e); process.exit(1) })
