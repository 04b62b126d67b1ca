"""bench/crawl/peers.py: the other crawlers the crawl benchmark runs.

Each peer is configured to be as polite as its options allow, as a user
would set it up (see PEER_NOTES). They come from Debian (wget2,
python3-scrapy) and are installed when missing.

Name resolution: neither peer may use the machine's resolver. Scrapy asks
the bench's dnsmasq itself (SPIDER's BenchResolver, twisted.names with
that one server, no /etc/resolv.conf). Wget2 1.99.1 has no option to
choose its DNS server or preload names, so every peer runs in sandbox():
a private mount namespace whose /etc/resolv.conf names only a second
dnsmasq of the bench (on RESOLV_ADDR, port 53), whose /etc/nsswitch.conf
says `hosts: files dns` and whose /etc/hosts holds only localhost. The
machine's files are untouched and other processes never see these.
"""
import os
import shutil
import subprocess

# The address of the dnsmasq that the sandboxed peers' resolv.conf names
# (glibc's resolver knows no port but 53).
RESOLV_ADDR = "127.0.53.53"

PEER_NOTES = {
    "wget2": "wget2 --recursive --no-parent --robots=on --wait=1 "
             "--random-wait=off --max-threads=T --delete-after (T: --concurrency, "
             "default 5, wget2's own; --wait is per thread, so up to T "
             "requests at once and no per-site limit)",
    "scrapy": "Scrapy CrawlSpider + LinkExtractor, ROBOTSTXT_OBEY, "
              "DOWNLOAD_DELAY=1, RANDOMIZE_DOWNLOAD_DELAY=False, "
              "CONCURRENT_REQUESTS_PER_DOMAIN=1, CONCURRENT_REQUESTS=C "
              "(--concurrency, default 256), AUTOTHROTTLE off, items "
              "(title, og:*, ld+json) to JSONL",
}

DEBIAN = {"wget2": "wget2", "scrapy": "python3-scrapy"}

# Debian's interpreter: python3-scrapy is installed for it, whatever
# python3 runs this script.
DEBIAN_PYTHON = "/usr/bin/python3"


def installed(peer):
    if peer == "wget2":
        return shutil.which("wget2") is not None
    if peer == "scrapy":
        return subprocess.run([DEBIAN_PYTHON, "-c", "import scrapy"],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    return True


def ensure_installed(peer, say):
    """apt-get install the peer's Debian package when it is missing."""
    if installed(peer):
        return
    pkg = DEBIAN[peer]
    say("installing %s from Debian: apt-get install -y %s" % (peer, pkg))
    cmd = ["apt-get", "install", "-y", "-q", pkg]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(cmd, env=env).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, check=True)
        subprocess.run(cmd, env=env, check=True)
    if not installed(peer):
        raise SystemExit("%s: still missing after installing %s" % (peer, pkg))


def sandbox_files(run):
    """Write the resolv.conf, nsswitch.conf and hosts the sandbox mounts."""
    files = {"resolv.conf": "nameserver %s\noptions timeout:2 attempts:2\n"
                            % RESOLV_ADDR,
             "nsswitch.conf": "hosts: files dns\n",
             "hosts": "127.0.0.1 localhost\n::1 localhost\n"}
    paths = []
    for name, text in files.items():
        path = os.path.join(run, "sandbox-" + name)
        with open(path, "w") as f:
            f.write(text)
        paths.append(path)
    return paths


# Mounts the three files over /etc's, checks that the resolver now names
# only the bench's dnsmasq, then becomes the peer (exec: same pid, so the
# bench's wait4 sees the peer's own usage).
SANDBOX_SH = (
    'mount --bind "$1" /etc/resolv.conf && '
    'mount --bind "$2" /etc/nsswitch.conf && '
    'mount --bind "$3" /etc/hosts && '
    'cmp -s "$1" /etc/resolv.conf && cmp -s "$2" /etc/nsswitch.conf || '
    '{ echo "sandbox: could not replace the resolver files" >&2; exit 97; }; '
    'shift 3; exec "$@"')


def sandbox(run, argv):
    """argv run with the bench's resolver files (see the module comment)."""
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c",
            SANDBOX_SH, "sandbox", *sandbox_files(run), *argv]


def sandbox_works(run):
    probe = sandbox(run, ["cat", "/etc/resolv.conf"])
    p = subprocess.run(probe, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return p.returncode == 0 and RESOLV_ADDR in p.stdout


def wget2_argv(seeds, run, threads, wait=1):
    """Recursive, robots.txt obeyed, `wait` seconds between a thread's
    downloads (0: none, for a speed figure; wget2 has no per-site limit
    either way), no random wait, bodies deleted once read for links. Not
    --spider: wget2 1.99.1's spider sends HEAD for each page and follows
    the links of only a few of them (on a 20-site web it read 1 home page
    of 20)."""
    return ["wget2", "--recursive", "--no-parent", "--robots=on",
            "--wait=%g" % wait, "--random-wait=off",
            "--max-threads=%d" % threads,
            "--delete-after", "--no-proxy", "--tries=2", "--timeout=30",
            "--no-verbose", "--output-file=" + os.path.join(run, "wget2.log"),
            "--directory-prefix=" + os.path.join(run, "wget2-files"),
            "--input-file=" + seeds]


SPIDER = r'''"""A polite Scrapy crawl of the bench's web, written by bench/crawl."""
import json
import sys

from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule
from twisted.internet import defer
from twisted.internet.abstract import isIPAddress, isIPv6Address
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer


@implementer(IResolverSimple)
class BenchResolver:
    """Names are asked of the bench's dnsmasq (BENCH_DNS) alone, with
    twisted.names (no /etc/resolv.conf), each name once; addresses are
    their own answer."""

    def __init__(self, reactor, server):
        from twisted.names import client
        host, port = server.rsplit(":", 1)
        self.reactor = reactor
        self.client = client.Resolver(servers=[(host, int(port))],
                                      reactor=reactor)
        self.cache = {}

    @classmethod
    def from_crawler(cls, crawler, reactor):
        return cls(reactor, crawler.settings.get("BENCH_DNS"))

    def install_on_reactor(self):
        self.reactor.installResolver(self)

    def getHostByName(self, name, timeout=(1, 3, 11)):
        if isIPAddress(name) or isIPv6Address(name):
            return defer.succeed(name)  # the per-address web's URLs
        if name in self.cache:
            return defer.succeed(self.cache[name])

        def keep(address):
            self.cache[name] = address
            return address
        return self.client.getHostByName(name, timeout).addCallback(keep)


class BenchSpider(CrawlSpider):
    name = "bench"
    rules = (Rule(LinkExtractor(), callback="parse_item", follow=True),)

    def __init__(self, seeds, *args, **kwargs):
        super().__init__(*args, **kwargs)
        with open(seeds) as f:
            self.start_urls = [line.strip() for line in f if line.strip()]

    def parse_start_url(self, response):
        return self.parse_item(response)

    def parse_item(self, response):
        item = {"url": response.url, "status": response.status,
                "title": response.css("title::text").get()}
        for m in response.css('meta[property^="og:"]'):
            item[m.attrib["property"]] = m.attrib.get("content")
        item["ld_json"] = []
        for text in response.css(
                'script[type="application/ld+json"]::text').getall():
            try:
                item["ld_json"].append(json.loads(text))
            except ValueError:
                pass
        yield item


def main():
    seeds, items, dns, concurrency = sys.argv[1:5]
    process = CrawlerProcess(settings={
        "ROBOTSTXT_OBEY": True,
        "DOWNLOAD_DELAY": 1.0,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        "CONCURRENT_REQUESTS": int(concurrency),
        "AUTOTHROTTLE_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        "DNS_RESOLVER": "__main__.BenchResolver",
        "BENCH_DNS": dns,
        "FEEDS": {items: {"format": "jsonlines", "encoding": "utf8"}},
    })
    process.crawl(BenchSpider, seeds=seeds)
    process.start()


if __name__ == "__main__":
    main()
'''


def scrapy_argv(seeds, run, dns_server, concurrency):
    """Writes the spider into run/ and returns its command line and the
    path of the items file it writes."""
    spider = os.path.join(run, "bench_spider.py")
    with open(spider, "w") as f:
        f.write(SPIDER)
    items = os.path.join(run, "items.jsonl")
    return [DEBIAN_PYTHON, spider, seeds, items, dns_server,
            str(concurrency)], items


def count_lines(path):
    if not os.path.exists(path):
        return 0
    with open(path, errors="replace") as f:
        return sum(1 for line in f if line.strip())
