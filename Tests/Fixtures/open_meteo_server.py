#!/usr/bin/env python3
"""A stand-in for Open-Meteo's geocoding and forecast APIs, for tests: serves canned JSON
on 127.0.0.1 and prints its port on the first line of standard output.

/v1/search?name=Berlin     -> Berlin; any other name -> no results
/v1/search?name=Broken     -> HTTP 500
/v1/forecast?latitude=…    -> current conditions (temperature = latitude / 10, so each place differs)
/v1/forecast?latitude=66.6 -> not JSON
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PLACES = {"berlin": {"id": 2950159, "name": "Berlin", "latitude": 52.52437, "longitude": 13.41053,
                     "country": "Germany", "admin1": "Land Berlin", "timezone": "Europe/Berlin"}}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json"):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        self.server.requests.append(self.path)
        if url.path == "/v1/search":
            name = query.get("name", "")
            if name == "Broken":
                return self.send(500, "{\"error\": true}")
            place = PLACES.get(name.lower())
            body = {"results": [place]} if place else {"generationtime_ms": 0.1}
            return self.send(200, json.dumps(body))
        if url.path == "/v1/forecast":
            latitude = float(query.get("latitude", "0"))
            if abs(latitude - 66.6) < 1e-9:
                return self.send(200, "<html>not json</html>", "text/html")
            assert "temperature_2m" in query.get("current", "")
            body = {"latitude": latitude, "longitude": float(query.get("longitude", "0")), "utc_offset_seconds": 3600,
                    "timezone": "Europe/Berlin",
                    "current": {"time": "2026-11-22T04:15", "interval": 900, "temperature_2m": round(latitude / 10, 1),
                                "relative_humidity_2m": 85, "apparent_temperature": -0.4, "is_day": 0,
                                "precipitation": 0.3, "weather_code": 3, "wind_speed_10m": 11.2,
                                "wind_direction_10m": 250}}
            return self.send(200, json.dumps(body))
        self.send(404, "{}")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.requests = []
print(server.server_address[1], flush=True)
server.serve_forever()
