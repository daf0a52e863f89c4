// The container's HEALTHCHECK: GET /healthz, exit 0 when it answers 200, else 1. The slim image
// has neither curl nor wget, and node starts in a fraction of the probe's interval. The port is
// the health endpoints': HEALTH_PORT, else PORT, where herald serves them in every mode (Discord's
// gateway or HTTP mode, Slack's Socket or HTTP mode). In Slack's HTTP mode they are on PORT beside
// Slack's endpoint, and herald refuses to start with a HEALTH_PORT other than PORT, so either names it.
const port = process.env.HEALTH_PORT || process.env.PORT;
const wildcard = ['', '0.0.0.0', '::', '[::]'];
const host = wildcard.includes(process.env.HEALTH_HOST ?? '') ? '127.0.0.1' : process.env.HEALTH_HOST;
const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}/healthz`;
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(4000) });
  process.exitCode = res.status === 200 ? 0 : 1;
} catch {
  process.exitCode = 1;
}
