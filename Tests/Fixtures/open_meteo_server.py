#!/usr/bin/env python3
"""A stand-in for Open-Meteo's geocoding and forecast APIs, for tests: serves canned JSON
on 127.0.0.1 and prints its port on the first line of standard output.

/v1/search?name=Berlin     -> Berlin; any other name -> no results
/v1/search?name=Springfield&count=N -> six Springfields as Open-Meteo ranks them (the first N)
/v1/get?id=N               -> the place with that id (400 for an unknown one)
/control?reverse=1         -> Springfield's matches come in the opposite order from now on
/v1/search?name=Broken     -> HTTP 500
/v1/search?name=Escapetown -> a place whose name, region and country hold control characters
                              (ESC ]0; … BEL, a C1 CSI, NUL), as JSON escapes them
/v1/forecast?latitude=…    -> current conditions (the current quarter hour), 24 hours from the current
                              hour and forecast_days days from yesterday (7 unless asked; both on
                              the place's clock, UTC+1;
                              temperature = latitude / 10, so each place differs), with UV index,
                              pressure_msl, visibility, cloud cover, gusts and dew point when asked
                              (uv_index_max, sunshine_duration, precipitation_hours daily), gzipped
                              when the client accepts it, with an ETag honoured by If-None-Match
/v1/forecast?latitude=66.6 -> not JSON
/v1/forecast?latitude=77.7 -> answers after 30 s (a stalled server)
/v1/forecast?latitude=33.3 -> nulls where a model has no value (humidity, wind direction, an hour)
/v1/air-quality?latitude=… -> current european_aqi, us_aqi, pm2_5, pm10, ozone, and the six pollen
                              counts when asked (birch 85: high, grass 25: moderate, alder 3: low,
                              the rest 0), nulls at 33.3 (as outside Europe)
/weatherapi/locationforecast/2.0/complete?lat=…&lon=… -> MET Norway's Locationforecast shape
                              (temperature = lat / 10 + 1, 24 hourly then 6-hourly steps from the current hour), with
                              Expires and Last-Modified, 304 to an If-Modified-Since; 403 without
                              a User-Agent or with more than four decimals
/control?fail=N            -> the next N forecasts of each provider answer HTTP 500
/control?omfail=N          -> the next N Open-Meteo forecasts only answer HTTP 500
/control?airfail=N         -> the next N air-quality answers are HTTP 503
/control?temperature=T     -> forecasts report T °C from now on
/control?hours=now         -> the hourly series has forecast_hours hours (24 unless asked) from the
                              current hour on the place's clock: temperature a daily wave between
                              2 and 10 °C, chance 0–90 %, 0.4 mm at 13:00 and at 16:00
                              (hours=fixed, the default: 24 canned hours from the current hour;
                              hours=past: the same, two days earlier, so none lies ahead)
/control?rain=S,L          -> minutely_15 (when asked, forecast_minutely_15 steps from the current
                              quarter hour on the place's clock, each the sum of the 15 minutes
                              before it) has 0.8 mm per step from S to S+L minutes after the current
                              quarter hour; rain=none: dry (the default). At 33.3: a null in the
                              third step, an absurd amount and a precipitation series shorter than its times
/alerts/active?point=LAT,LON -> NWS's active alerts, GeoJSON: none, or alerts/nws-severe.json
                              (a Severe Thunderstorm Warning) while /control?alerts=on
/weatherapi/metalerts/2.0/current.json?lat=&lon=&lang=en -> MetAlerts, GeoJSON (400 without lang=en): none, or
                              alerts/metalerts-wind.json (an orange wind warning) while alerts=on
/weatherapi/metalerts/2.0/current.json?geographicDomain=marine -> MetAlerts' marine warnings: none, or
                              alerts/metalerts-gale.json (a yellow gale warning in Oslofjorden, an
                              orange one in the North Sea) while alerts=on
/api/v1/warnings/feeds-COUNTRY -> MeteoAlarm's country feed, CAP as JSON: no warnings, or for germany
                              alerts/meteoalarm-germany.json while alerts=on (a wind warning whose
                              polygon holds Berlin, a frost warning naming "Land Berlin" without a
                              polygon, and ones that must not show: replaced, elsewhere, green,
                              ended, an exercise)
/control?alerts=on|off|fail|garbage|huge|bomb -> alerts in force, none, the alert endpoints answer
                              HTTP 503, not JSON (with an ETag honoured by If-None-Match), 9 MiB of JSON, or
                              4 MB of {"features":[[0,0,…],…],"warnings":[[0,0,…],…]} (two million values); the NWS answers 403 without
                              a User-Agent
/control?alertfailstatus=500  -> the status alerts=fail answers (503 unless told)
/control?metseverity=Minor    -> the MetAlerts warning's CAP severity (Severe unless told)
/control?alertsend=SECONDS    -> alerts end SECONDS from now (-60: ended a minute ago) rather than in six hours
--alert-schedule FILE         -> (an argument) each source's alert is in force only in the windows FILE
                              lists, JSON [{"source": "nws"|"metalerts"|"marine"|"meteoalarm",
                              "onset", "expires" (Unix seconds), "n"}]: from its onset to its expiry,
                              with those times and ids of its own ("fixture.w<n>.…") (make soak)
--request-log FILE            -> (an argument) a line per request: "TIME PATH STATUS", TIME as the fixture's clock
                              says (the simulated time in make soak), in place of /requests (a month of
                              them would not fit)
/control?dst=on            -> the answers' offset follows Europe/Berlin at the fixture's now (the
                              offset current when asked, as Open-Meteo gives it), not UTC+1
/control?instruction=TEXT     -> the NWS alert's instruction is TEXT (markup and all) rather than the fixture's
/requests                  -> what was asked so far: [{"path", "headers", "status"}]

Dates follow the fixture's clock: the computer's, or the simulated time in the file
ALMANAC_SIMULATED_CLOCK names when the test sets it (the daemon's simulated clock).
"""
import gzip
import hashlib
import json
import math
import os
import sys
import threading
import time
import zoneinfo
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PLACES = {"berlin": {"id": 2950159, "name": "Berlin", "latitude": 52.52437, "longitude": 13.41053,
                     "country": "Germany", "admin1": "Land Berlin", "timezone": "Europe/Berlin"}}
SPRINGFIELDS = [
    (4409896, "Missouri", "Greene", 37.21533, -93.29824, 169176, "America/Chicago", "US", "United States"),
    (4951788, "Massachusetts", "Hampden", 42.10148, -72.58981, 155929, "America/New_York", "US", "United States"),
    (4250542, "Illinois", "Sangamon", 39.80172, -89.64371, 116250, "America/Chicago", "US", "United States"),
    (5754005, "Oregon", "Lane", 44.04624, -123.02203, 62256, "America/Los_Angeles", "US", "United States"),
    (4525353, "Ohio", "Clark", 39.92423, -83.80882, 58662, "America/New_York", "US", "United States"),
    (8348570, "Queensland", "Ipswich", -27.65326, 152.91719, 19000, "Australia/Brisbane", "AU", "Australia"),
]
for (pid, admin1, admin2, lat, lon, pop, tz, code, country) in SPRINGFIELDS:
    PLACES["springfield-%d" % pid] = {"id": pid, "name": "Springfield", "latitude": lat, "longitude": lon, "elevation": 100.0,
                                       "feature_code": "PPLA2", "country_code": code, "timezone": tz, "population": pop,
                                       "country": country, "admin1": admin1, "admin2": admin2}
PLACES["escapetown"] = {"id": 666, "name": "Escape\u001b]0;x\u0007town", "latitude": 10.5, "longitude": 20.5,
                        "country": "Coun\u0000try", "country_code": "X\u009bY", "admin1": "Re\u009b2Jgion", "admin2": "Dis\u007ftrict",
                        "timezone": "Etc/UTC"}
LOCK = threading.Lock()
STATE = {"instruction": None, "alertfailstatus": 503, "metseverity": None, "alertsend": None, "alerts": "off", "fail": 0, "metfail": 0, "airfail": 0, "temperature": None, "reverse": False, "rain": None, "hours": "fixed", "dst": False}
MET_MODIFIED = "Sun, 22 Nov 2026 03:00:00 GMT"
# --alert-schedule FILE: a JSON list of {"source", "onset", "expires", "n"} (Unix seconds);
# each source's alert is then in force in its windows alone, whatever /control?alerts= says.
SCHEDULE = None
# --request-log FILE: a line per request, "TIME PATH STATUS" (the fixture's time: simulated in make soak).
REQUEST_LOG = open(sys.argv[sys.argv.index("--request-log") + 1], "a", buffering=1) if "--request-log" in sys.argv else None
if "--alert-schedule" in sys.argv:
    with open(sys.argv[sys.argv.index("--alert-schedule") + 1]) as schedule_file:
        SCHEDULE = json.load(schedule_file)
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


def now():
    """The fixture's clock: the simulated time in the file ALMANAC_SIMULATED_CLOCK names (the
    daemon's, when a test runs it on one), else the computer's."""
    path = os.environ.get("ALMANAC_SIMULATED_CLOCK")
    if path:
        try:
            with open(path) as f:
                return float(f.read(64).strip())
        except (OSError, ValueError):
            pass
    return time.time()


def utc_offset():
    """The offset the answers' times are given at: UTC+1, or with /control?dst=on Berlin's
    offset at the fixture's now, as Open-Meteo gives every time of an answer at the offset
    current when it is asked (so after a change inside the forecast they are an hour off)."""
    if not STATE["dst"]:
        return 3600
    import datetime
    return int(datetime.datetime.fromtimestamp(now(), BERLIN).utcoffset().total_seconds())


def logged(handler, status):
    """Keeps a request for /requests, or (with --request-log FILE) writes it there as a line
    "TIME PATH STATUS", TIME the fixture's now; under LOCK."""
    if REQUEST_LOG:
        REQUEST_LOG.write("%.3f %s %d\n" % (now(), handler.path, status))
    else:
        handler.server.requests.append({"path": handler.path, "headers": dict(handler.headers.items()), "status": status})


def scheduled_window(source):
    """The window of `source` (nws, metalerts, marine, meteoalarm) in force at the fixture's
    now in the schedule --alert-schedule gave, if any."""
    moment = now()
    for window in SCHEDULE:
        if window["source"] == source and window["onset"] <= moment < window["expires"]:
            return window
    return None


def met_forecast(lat, lon):
    base = STATE["temperature"] if STATE["temperature"] is not None else round(lat / 10 + 1, 1)
    steps = []
    start = int(now() // 3600 * 3600)
    for i in range(30):
        hours = i if i < 24 else 24 + (i - 24) * 6
        hour = ((start // 3600) + hours) % 24
        when = time.strftime("%Y-%m-%dT%H:00:00Z", time.gmtime(start + hours * 3600))
        symbol = "rain" if 6 <= i < 12 else ("partlycloudy_night" if hour < 7 or hour > 16 else "partlycloudy_day")
        data = {"instant": {"details": {"air_pressure_at_sea_level": 1008.2, "air_temperature": round(base + i / 10, 1),
                                        "cloud_area_fraction": 75.0, "dew_point_temperature": 0.4, "relative_humidity": 81.0,
                                        "wind_from_direction": 200.0, "wind_speed": 5.0, "wind_speed_of_gust": 9.5,
                                        "ultraviolet_index_clear_sky": 0.3}}}
        if i < 24:
            data["next_1_hours"] = {"summary": {"symbol_code": symbol}, "details": {"precipitation_amount": 0.5 if symbol == "rain" else 0.0,
                                                                                 "probability_of_precipitation": 60.0 if symbol == "rain" else 10.0}}
        data["next_6_hours"] = {"summary": {"symbol_code": symbol}, "details": {"air_temperature_max": base + 2, "air_temperature_min": base - 2,
                                                                             "precipitation_amount": 1.2}}
        steps.append({"time": when, "data": data})
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat, 40]},
            "properties": {"meta": {"updated_at": time.strftime("%Y-%m-%dT%H:00:00Z", time.gmtime(start)),
                                    "units": {"air_pressure_at_sea_level": "hPa", "air_temperature": "celsius", "wind_speed": "m/s",
                                              "precipitation_amount": "mm", "relative_humidity": "%"}},
                           "timeseries": steps}}
DETAILS = {"uv_index": 2.35, "pressure_msl": 1021.4, "visibility": 24140.0, "cloud_cover": 88, "wind_gusts_10m": 31.7, "dew_point_2m": -1.6}
DAILY_DETAILS = {"uv_index_max": 1.85, "sunshine_duration": 11684.53, "precipitation_hours": 3.0}


def cycle(values, count):
    return [values[i % len(values)] for i in range(count)]


def forecast(latitude, longitude, query):
    temperature = STATE["temperature"] if STATE["temperature"] is not None else round(latitude / 10, 1)
    offset = utc_offset()
    # Dates follow the clock, so that the suite passes on any day: the hours from the current
    # hour, the days from yesterday, both on the place's clock.
    hour = int(now() // 3600 * 3600) - (48 * 3600 if STATE["hours"] == "past" else 0)
    hours = [time.strftime("%Y-%m-%dT%H:00", time.gmtime(hour + i * 3600 + offset)) for i in range(24)]
    count = int(query.get("forecast_days", "7"))
    yesterday = (int(now()) + offset) // 86400 * 86400 - 86400
    days = [time.strftime("%Y-%m-%d", time.gmtime(yesterday + d * 86400)) for d in range(count)]
    data = {
        "latitude": latitude, "longitude": longitude, "utc_offset_seconds": offset, "timezone": "Europe/Berlin",
        "current": {"time": time.strftime("%Y-%m-%dT%H:%M", time.gmtime(int(now()) // 900 * 900 + offset)), "interval": 900,
                    "temperature_2m": temperature,
                    "relative_humidity_2m": 85, "apparent_temperature": -0.4, "is_day": 0,
                    "precipitation": 0.3, "weather_code": 3, "wind_speed_10m": 11.2, "wind_direction_10m": 250},
        "hourly": {"time": hours,
                   "temperature_2m": [round(temperature + i / 10, 1) for i in range(24)],
                   "precipitation_probability": [i * 4 for i in range(24)],
                   "precipitation": [0.0] * 23 + [None],
                   "weather_code": [3] * 12 + [61] * 12,
                   "wind_speed_10m": [10.0] * 24,
                   "is_day": [0] * 4 + [1] * 10 + [0] * 10},
        "daily": {"time": days,
                  "weather_code": [3, 61, 63, 0, 1, 2, 95],
                  "temperature_2m_max": [8.1, 7.0, 6.5, 9.9, 10.2, 11.0, 12.5],
                  "temperature_2m_min": [1.2, 0.5, -1.0, 2.0, 3.3, 4.0, 5.1],
                  "precipitation_sum": [0.3, 4.2, 8.0, 0.0, 0.0, 0.1, 12.0],
                  "precipitation_probability_max": [20, 80, 90, 0, 5, 10, 100],
                  "wind_speed_10m_max": [15.0, 22.0, 30.5, 8.0, 9.0, 10.0, 40.0],
                  "sunrise": ["%sT07:45" % d for d in days],
                  "sunset": ["%sT16:02" % d for d in days]},
    }
    for key in ("weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum", "precipitation_probability_max", "wind_speed_10m_max"):
        data["daily"][key] = cycle(data["daily"][key], count)
    for key, value in DETAILS.items():
        if key in query.get("current", "").split(","):
            data["current"][key] = value
        if key in query.get("hourly", "").split(","):
            data["hourly"][key] = [value] * 24
    for key, value in DAILY_DETAILS.items():
        if key in query.get("daily", "").split(","):
            data["daily"][key] = [value] * count
    if STATE["hours"] == "now":
        data["hourly"] = hours_from_now(int(query.get("forecast_hours", "24")), data["utc_offset_seconds"], query)
    return data


def hours_from_now(count, offset, query):
    """forecast_hours hours from the current hour, on the place's clock."""
    start = int(now() // 3600 * 3600)
    times, temperatures, chances, amounts = [], [], [], []
    for i in range(count):
        local = start + i * 3600 + offset
        hour = (local // 3600) % 24
        times.append(time.strftime("%Y-%m-%dT%H:00", time.gmtime(local)))
        temperatures.append(round(6 - 4 * math.cos((hour - 3) / 24 * 2 * math.pi), 1))
        chances.append((hour * 7) % 91)
        amounts.append(0.4 if hour in (13, 16) else 0.0)
    series = {"time": times, "temperature_2m": temperatures, "precipitation_probability": chances, "precipitation": amounts,
              "weather_code": [61 if a else 3 for a in amounts], "wind_speed_10m": [10.0] * count,
              "is_day": [1 if 8 <= (((start + i * 3600 + offset) // 3600) % 24) < 16 else 0 for i in range(count)]}
    for key, value in DETAILS.items():
        if key in query.get("hourly", "").split(","):
            series[key] = [value] * count
    return series


def minutely(query, offset):
    """Open-Meteo's minutely_15 from the current quarter hour, on the place's clock."""
    count = int(query.get("forecast_minutely_15", "4"))
    quarter = int(now() // 900 * 900)
    times, amounts = [], []
    for i in range(count):
        end = quarter + i * 900
        times.append(time.strftime("%Y-%m-%dT%H:%M", time.gmtime(end + offset)))
        after = (end - 900 - quarter) / 60
        rain = STATE["rain"]
        amounts.append(0.8 if rain and rain[0] <= after < rain[0] + rain[1] else 0.0)
    return {"time": times, "precipitation": amounts}


POLLEN = {"alder_pollen": 3.0, "birch_pollen": 85.0, "grass_pollen": 25.0, "mugwort_pollen": 0.0, "olive_pollen": 0.0, "ragweed_pollen": 0.0}


def air_quality(latitude, longitude, query):
    nulls = abs(latitude - 33.3) < 1e-9
    offset = utc_offset()
    return {"latitude": latitude, "longitude": longitude, "generationtime_ms": 0.2, "utc_offset_seconds": offset,
            "timezone": "Europe/Berlin", "timezone_abbreviation": "CET", "elevation": 38.0,
            "current_units": {"time": "iso8601", "interval": "seconds", "european_aqi": "EAQI", "us_aqi": "USAQI",
                              "pm2_5": "μg/m³", "pm10": "μg/m³", "ozone": "μg/m³"},
            "current": {"time": time.strftime("%Y-%m-%dT%H:00", time.gmtime(int(now()) // 3600 * 3600 + offset)), "interval": 3600, "european_aqi": None if nulls else 21,
                        "us_aqi": None if nulls else 42, "pm2_5": None if nulls else 5.3, "pm10": 8.1, "ozone": 61.0,
                        **{key: None if nulls else value for key, value in POLLEN.items() if key in query.get("current", "").split(",")}}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json", headers=None):
        data = body.encode()
        if "gzip" in self.headers.get("Accept-Encoding", "") and status == 200:
            data = gzip.compress(data)
            headers = dict(headers or {}, **{"Content-Encoding": "gzip"})
        # Recorded before the answer goes: a client that asks /requests as soon as it has
        # its answer must find the request there (each request has a thread of its own).
        with LOCK:
            logged(self, status)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def alerts(self, path):
        """Alerts in force from a minute ago to six hours on, with an ETag honoured by If-None-Match."""
        mode = STATE["alerts"]
        if mode == "fail":
            return self.send(STATE["alertfailstatus"], "{\"title\": \"Service Unavailable\"}", "application/problem+json")
        nws = path == "/alerts/active"
        meteoalarm = path.startswith("/api/v1/warnings/")
        if nws and not self.headers.get("User-Agent"):
            return self.send(403, "{\"title\": \"Forbidden: a User-Agent is required\"}", "application/problem+json")
        marine = "geographicDomain=marine" in self.path
        if not nws and not meteoalarm and "lang=en" not in self.path:
            # MetAlerts answers in Norwegian without it: the fixture has only the English texts.
            return self.send(400, "{\"title\": \"fixture: MetAlerts is asked with lang=en\"}", "application/problem+json")
        if mode == "garbage":
            # With an ETag, as a real server's maintenance page may have: a 304 to it is not alerts.
            tag = '"maintenance"'
            if self.headers.get("If-None-Match") == tag:
                return self.send(304, "", "text/html", {"ETag": tag})
            return self.send(200, "<html>maintenance</html>", "text/html", {"ETag": tag})
        if mode == "bomb":
            nested = "[" + ",".join(["[" + ",".join(["0"] * 1000) + "]"] * 1000) + "]"
            return self.send(200, "{\"features\": " + nested + ", \"warnings\": " + nested + "}")
        if mode == "huge":
            return self.send(200, "{\"warnings\": [" + ",".join(["{}"] * (9 * 1024 * 1024 // 3)) + "]}")
        source = "meteoalarm" if meteoalarm else "nws" if nws else "marine" if marine else "metalerts"
        window = scheduled_window(source) if SCHEDULE is not None else None
        if (window or (SCHEDULE is None and mode == "on")) and (not meteoalarm or path.endswith("/feeds-germany")):
            name = ("meteoalarm-germany.json" if meteoalarm else "nws-severe.json" if nws
                    else "metalerts-gale.json" if marine else "metalerts-wind.json")
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "alerts", name)) as f:
                body = f.read()
            hour = now() // 3600 * 3600
            stamp = lambda t: time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(t))
            ends = hour + 6 * 3600 if STATE["alertsend"] is None else now() + STATE["alertsend"]
            onset = hour
            if window:
                # Each window is an alert of its own: its times, and ids of its own.
                onset, ends = window["onset"], window["expires"]
                body = body.replace("fixture.", "fixture.w%d." % window["n"])
            body = (body.replace("{{sent}}", stamp(onset)).replace("{{onset}}", stamp(onset))
                    .replace("{{expires}}", stamp(ends)).replace("{{title_times}}", "today")
                    .replace("{{past}}", stamp(hour - 6 * 3600)))
            if nws and STATE["instruction"] is not None:
                answer = json.loads(body)
                for feature in answer["features"]:
                    feature["properties"]["instruction"] = STATE["instruction"]
                body = json.dumps(answer)
            if not nws and not meteoalarm and STATE["metseverity"]:
                body = body.replace('"severity": "Severe"', '"severity": "%s"' % STATE["metseverity"])
        elif meteoalarm:
            body = json.dumps({"warnings": []})
        else:
            body = json.dumps({"type": "FeatureCollection", "features": []})
        tag = '"%s"' % hashlib.sha1(body.encode()).hexdigest()
        if self.headers.get("If-None-Match") == tag:
            return self.send(304, "", "application/geo+json", {"ETag": tag})
        return self.send(200, body, "application/geo+json", {"ETag": tag})

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/requests":
            with LOCK:
                body = json.dumps(self.server.requests)
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if url.path == "/control":
            with LOCK:
                if "fail" in query:
                    STATE["fail"] = STATE["metfail"] = int(query["fail"])
                if "omfail" in query:
                    STATE["fail"] = int(query["omfail"])
                if "reverse" in query:
                    STATE["reverse"] = query["reverse"] == "1"
                if "hours" in query:
                    STATE["hours"] = query["hours"]
                if "airfail" in query:
                    STATE["airfail"] = int(query["airfail"])
                if "alerts" in query:
                    STATE["alerts"] = query["alerts"]
                if "alertfailstatus" in query:
                    STATE["alertfailstatus"] = int(query["alertfailstatus"])
                if "metseverity" in query:
                    STATE["metseverity"] = query["metseverity"]
                if "instruction" in query:
                    STATE["instruction"] = query["instruction"]
                if "alertsend" in query:
                    STATE["alertsend"] = float(query["alertsend"])
                if "temperature" in query:
                    STATE["temperature"] = float(query["temperature"])
                if "dst" in query:
                    STATE["dst"] = query["dst"] == "on"
                if "rain" in query:
                    STATE["rain"] = None if query["rain"] == "none" else tuple(int(v) for v in query["rain"].split(","))
            return self.send(200, "{}")
        if url.path in ("/alerts/active", "/weatherapi/metalerts/2.0/current.json") or url.path.startswith("/api/v1/warnings/feeds-"):
            return self.alerts(url.path)
        if url.path == "/v1/search":
            name = query.get("name", "")
            if name == "Broken":
                return self.send(500, "{\"error\": true}")
            if name.lower() == "springfield":
                found = [PLACES["springfield-%d" % s[0]] for s in SPRINGFIELDS]
                if STATE["reverse"]:
                    found.reverse()
                body = {"results": found[:int(query.get("count", "10"))], "generationtime_ms": 0.4}
                return self.send(200, json.dumps(body))
            place = PLACES.get(name.lower())
            body = {"results": [place]} if place else {"generationtime_ms": 0.1}
            return self.send(200, json.dumps(body))
        if url.path == "/v1/get":
            found = [p for p in PLACES.values() if str(p.get("id")) == query.get("id", "")]
            if not found:
                return self.send(400, "{\"error\": true, \"reason\": \"Location not found\"}")
            return self.send(200, json.dumps(found[0]))
        if url.path == "/v1/forecast":
            latitude = float(query.get("latitude", "0"))
            if abs(latitude - 66.6) < 1e-9:
                return self.send(200, "<html>not json</html>", "text/html")
            if abs(latitude - 77.7) < 1e-9:
                time.sleep(30)
                return self.send(200, "{}")
            with LOCK:
                failing = STATE["fail"] > 0
                if failing:
                    STATE["fail"] -= 1
            if failing:
                return self.send(500, "{\"error\": true, \"reason\": \"failing on purpose\"}")
            for part in ("temperature_2m", "weather_code"):
                assert part in query.get("current", "") and part in query.get("hourly", ""), query
            data = forecast(latitude, float(query.get("longitude", "0")), query)
            if "precipitation" in query.get("minutely_15", "").split(","):
                with LOCK:
                    data["minutely_15"] = minutely(query, data["utc_offset_seconds"])
            if abs(latitude - 33.3) < 1e-9:
                data["current"]["relative_humidity_2m"] = None
                data["current"]["wind_direction_10m"] = None
                data["hourly"]["temperature_2m"][1] = None
                data["daily"]["precipitation_probability_max"] = [None] * len(data["daily"]["time"])
                if "minutely_15" in data:
                    data["minutely_15"]["precipitation"] = [0.0, 0.0, 1e9, None][:len(data["minutely_15"]["time"]) - 1]
            body = json.dumps(data)
            etag = '"%s"' % hashlib.sha1(body.encode()).hexdigest()[:16]
            if self.headers.get("If-None-Match") == etag:
                with LOCK:
                    logged(self, 304)
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            return self.send(200, body, headers={"ETag": etag})
        if url.path == "/weatherapi/locationforecast/2.0/complete":
            lat, lon = query.get("lat", "0"), query.get("lon", "0")
            if not self.headers.get("User-Agent") or any(len(v.split(".")[1]) > 4 for v in (lat, lon) if "." in v):
                return self.send(403, "{\"error\": \"identify yourself and truncate coordinates\"}")
            with LOCK:
                failing = STATE["metfail"] > 0
                if failing:
                    STATE["metfail"] -= 1
            if failing:
                return self.send(500, "{\"error\": true, \"reason\": \"failing on purpose\"}")
            if self.headers.get("If-Modified-Since") == MET_MODIFIED:
                with LOCK:
                    logged(self, 304)
                self.send_response(304)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            expires = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(now() + float(query.get("expires", "1800"))))
            return self.send(200, json.dumps(met_forecast(float(lat), float(lon))),
                             headers={"Expires": expires, "Last-Modified": MET_MODIFIED})
        if url.path == "/v1/air-quality":
            with LOCK:
                failing = STATE["airfail"] > 0
                if failing:
                    STATE["airfail"] -= 1
            if failing:
                return self.send(503, "{\"error\": true, \"reason\": \"air failing on purpose\"}")
            return self.send(200, json.dumps(air_quality(float(query.get("latitude", "0")), float(query.get("longitude", "0")), query)))
        self.send(404, "{}")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
server.requests = []
print(server.server_address[1], flush=True)
server.serve_forever()
