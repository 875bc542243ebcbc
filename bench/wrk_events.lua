-- wrk (Debian's) script of `make bench` (g): POST /v1/events with 10 fresh records a request,
-- each connection pacing itself (20 ms after each answer), and the figures printed as
-- `paywire NAME VALUE` lines for bench/server_events.py. Event ids are unique per thread and
-- request, so every record is new to the server.
local threads = {}

function setup(thread)
   thread:set("id", #threads + 1)
   table.insert(threads, thread)
end

local counter = 0

function delay()
   return 20
end

function request()
   local records = {}
   for i = 1, 10 do
      counter = counter + 1
      records[i] = string.format('{"event_id":"%08x-0000-4000-8000-%012x","install_id":"wrk","profile_id":"wrk-%d",'
         .. '"session_id":"s","created_at":1732300000000,"seq":%d,"name":"app_opened","params":{},'
         .. '"app":{"platform":"linux"},"sdk":{"version":"0"}}', id, counter, id, counter)
   end
   return wrk.format("POST", "/v1/events", { ["Content-Type"] = "application/json" },
                     '{"records":[' .. table.concat(records, ",") .. ']}')
end

function done(summary, latency, requests)
   local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status
      + summary.errors.timeout
   io.write(string.format("paywire p50 %d\n", latency:percentile(50)))
   io.write(string.format("paywire p99 %d\n", latency:percentile(99)))
   io.write(string.format("paywire rate %.1f\n", summary.requests / (summary.duration / 1e6)))
   io.write(string.format("paywire errors %d\n", errors))
end
