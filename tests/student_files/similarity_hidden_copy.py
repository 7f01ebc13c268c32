"""My hooks (a classmate's file, base64-encoded and run with exec: the comparison sees one string)."""

import base64

exec(base64.b64decode("{{PAYLOAD}}").decode("utf-8"))
