-- wrk script of bench/serve: GET PREFIX/ID for ids drawn at random from a
-- file of ids that may be shown (one per line), each thread with its own
-- seed so that runs repeat. Prints the figures bench.py reads in done().
--
--   wrk -t2 -c16 -d15s -s records.lua http://127.0.0.1:PORT -- IDS /records/ SEED

local threads = {}
local counter = 0

function setup(thread)
	counter = counter + 1
	thread:set("thread_no", counter)
	table.insert(threads, thread)
end

local ids = {}
local prefix = "/records/"

function init(args)
	for line in io.lines(args[1]) do
		ids[#ids + 1] = line
	end
	prefix = args[2] or prefix
	math.randomseed((tonumber(args[3]) or 1) * 1000 + thread_no)
end

function request()
	return wrk.format("GET", prefix .. ids[math.random(#ids)])
end

function done(summary, latency, requests)
	local s = summary.duration / 1e6
	io.write(string.format("BENCH requests %d\n", summary.requests))
	io.write(string.format("BENCH seconds %.3f\n", s))
	io.write(string.format("BENCH rate %.1f\n", summary.requests / s))
	io.write(string.format("BENCH non2xx %d\n", summary.errors.status))
	io.write(string.format("BENCH errors %d\n", summary.errors.connect +
		summary.errors.read + summary.errors.write +
		summary.errors.timeout))
	for _, p in ipairs({50, 90, 95, 99}) do
		io.write(string.format("BENCH p%d_ms %.3f\n", p,
			latency:percentile(p) / 1000))
	end
	io.write(string.format("BENCH max_ms %.3f\n", latency.max / 1000))
end
