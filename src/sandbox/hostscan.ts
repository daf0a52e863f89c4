// Simulated Shodan host lookup (docs/SERVICES.md S6): GET /shodan/host/{ip}?key=…
// answers a believable, deterministic host for any public address, and Shodan's own bodies for
// a missing or wrong key, an invalid address and an address it knows nothing about.
import { isIP } from 'node:net';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route, type HandlerOptions } from './layout.ts';
import { hashSeed, seededRandom, type SeededRandom } from './seeded-random.ts';

interface HostscanHandlerOptions extends HandlerOptions {
  /** Clock for `last_update` and banner timestamps (tests fix it). */
  now?: () => number;
}

/** Inputs that make the simulator answer like Shodan's failures (for demos and tests). */
export const HOSTSCAN_MAGIC = Object.freeze({
  /** Documentation ranges (RFC 5737, RFC 3849) and private addresses: 404 "No information available". */
  unknownRanges: [
    '192.0.2.0/24',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '2001:db8::/32',
    'private and loopback',
  ],
  /** An address in the documentation ranges, for examples. */
  unknownIp: '192.0.2.10',
  /** This key answers 403 "Requires membership or higher to access" (a free plan). */
  freePlanKey: 'sandbox-free-plan',
});

const NGINX_401 =
  '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>\r\n' +
  '<center><h1>401 Authorization Required</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

interface Org {
  org: string;
  isp: string;
  asn: number;
  country: [code: string, name: string];
  city: string;
  region: string;
  lat: number;
  lon: number;
  hostname?: (ip: string) => string;
}

// prettier-ignore
const ORGS: readonly Org[] = [
  { org: 'Google LLC', isp: 'Google LLC', asn: 15169, country: ['US', 'United States'], city: 'Mountain View', region: 'CA', lat: 37.4056, lon: -122.0775 },
  { org: 'Amazon Technologies Inc.', isp: 'Amazon.com, Inc.', asn: 16509, country: ['US', 'United States'], city: 'Ashburn', region: 'VA', lat: 39.0437, lon: -77.4875, hostname: (ip) => `ec2-${ip.replaceAll('.', '-')}.compute-1.amazonaws.com` },
  { org: 'DigitalOcean, LLC', isp: 'DigitalOcean, LLC', asn: 14061, country: ['NL', 'Netherlands'], city: 'Amsterdam', region: 'NH', lat: 52.3676, lon: 4.9041 },
  { org: 'Hetzner Online GmbH', isp: 'Hetzner Online GmbH', asn: 24940, country: ['DE', 'Germany'], city: 'Falkenstein', region: 'SN', lat: 50.4779, lon: 12.3713, hostname: (ip) => `static.${ip.split('.').reverse().join('.')}.clients.your-server.de` },
  { org: 'OVH SAS', isp: 'OVH SAS', asn: 16276, country: ['FR', 'France'], city: 'Roubaix', region: 'HDF', lat: 50.6942, lon: 3.1746, hostname: (ip) => `ip${ip.split('.').slice(1).join('-')}.eu` },
  { org: 'Cloudflare, Inc.', isp: 'Cloudflare, Inc.', asn: 13335, country: ['US', 'United States'], city: 'San Francisco', region: 'CA', lat: 37.7621, lon: -122.3971 },
  { org: 'Akamai Connected Cloud', isp: 'Linode', asn: 63949, country: ['GB', 'United Kingdom'], city: 'London', region: 'ENG', lat: 51.5085, lon: -0.1257, hostname: (ip) => `${ip.replaceAll('.', '-')}.ip.linodeusercontent.com` },
  { org: 'Deutsche Telekom AG', isp: 'Deutsche Telekom AG', asn: 3320, country: ['DE', 'Germany'], city: 'Berlin', region: 'BE', lat: 52.5244, lon: 13.4105, hostname: (ip) => `p${hashSeed(ip).toString(16).slice(0, 8)}.dip0.t-ipconnect.de` },
  { org: 'Comcast Cable Communications, LLC', isp: 'Comcast Cable Communications, LLC', asn: 7922, country: ['US', 'United States'], city: 'Chicago', region: 'IL', lat: 41.85, lon: -87.65, hostname: (ip) => `c-${ip.replaceAll('.', '-')}.hsd1.il.comcast.net` },
  { org: 'NTT Communications Corporation', isp: 'NTT Communications Corporation', asn: 2914, country: ['JP', 'Japan'], city: 'Tokyo', region: '13', lat: 35.6895, lon: 139.6917 },
  { org: 'Telefonica de Espana SAU', isp: 'Telefonica de Espana', asn: 3352, country: ['ES', 'Spain'], city: 'Madrid', region: 'MD', lat: 40.4165, lon: -3.7026, hostname: (ip) => `${ip.split('.').reverse().join('.')}.dyn.user.ono.com` },
  { org: 'The Constant Company, LLC', isp: 'Vultr Holdings, LLC', asn: 20473, country: ['SG', 'Singapore'], city: 'Singapore', region: '01', lat: 1.2897, lon: 103.8501, hostname: (ip) => `${ip}.vultrusercontent.com` },
  { org: 'Microsoft Corporation', isp: 'Microsoft Corporation', asn: 8075, country: ['IE', 'Ireland'], city: 'Dublin', region: 'L', lat: 53.3331, lon: -6.2489 },
  { org: 'Oracle Corporation', isp: 'Oracle Corporation', asn: 31898, country: ['BR', 'Brazil'], city: 'São Paulo', region: 'SP', lat: -23.5475, lon: -46.6361 },
];

interface Product {
  product: string | undefined;
  /** Version -> CVE ids known for it (a few real ones, for a believable picture). */
  versions: Readonly<Record<string, readonly string[]>>;
  cpe?: string;
  banner: (version: string | undefined) => string;
}

interface ServiceSpec {
  port: number;
  transport: 'tcp' | 'udp';
  module: string;
  products: readonly Product[];
}

const NGINX: Product = {
  product: 'nginx',
  versions: { '1.18.0': ['CVE-2021-23017'], '1.22.1': [], '1.24.0': [], '1.26.2': [] },
  cpe: 'cpe:2.3:a:f5:nginx',
  banner: (v) =>
    `HTTP/1.1 200 OK\r\nServer: nginx/${v}\r\nContent-Type: text/html\r\nConnection: keep-alive\r\n\r\n`,
};
const APACHE: Product = {
  product: 'Apache httpd',
  versions: {
    '2.4.41': ['CVE-2020-11984', 'CVE-2021-44790'],
    '2.4.49': ['CVE-2021-41773', 'CVE-2021-42013'],
    '2.4.62': [],
  },
  cpe: 'cpe:2.3:a:apache:http_server',
  banner: (v) =>
    `HTTP/1.1 200 OK\r\nServer: Apache/${v} (Ubuntu)\r\nContent-Type: text/html; charset=UTF-8\r\n\r\n`,
};

// prettier-ignore
const SERVICES: readonly ServiceSpec[] = [
  { port: 22, transport: 'tcp', module: 'ssh', products: [{ product: 'OpenSSH', versions: { '7.4': ['CVE-2018-15473', 'CVE-2023-38408'], '8.2p1 Ubuntu-4ubuntu0.5': ['CVE-2021-41617'], '8.9p1 Ubuntu-3ubuntu0.6': ['CVE-2024-6387'], '9.9p1': [] }, cpe: 'cpe:2.3:a:openbsd:openssh', banner: (v) => `SSH-2.0-OpenSSH_${v}\nKey type: ssh-ed25519\n` }] },
  { port: 80, transport: 'tcp', module: 'http', products: [NGINX, APACHE] },
  { port: 443, transport: 'tcp', module: 'https', products: [NGINX, APACHE] },
  { port: 53, transport: 'udp', module: 'dns-udp', products: [{ product: 'dnsmasq', versions: { '2.80': ['CVE-2020-25681', 'CVE-2020-25682'], '2.90': [] }, cpe: 'cpe:2.3:a:thekelleys:dnsmasq', banner: (v) => `\nRecursion: enabled\nResolver name: dnsmasq-${v}` }] },
  { port: 25, transport: 'tcp', module: 'smtp', products: [{ product: 'Postfix smtpd', versions: { '': [] }, cpe: 'cpe:2.3:a:postfix:postfix', banner: () => '220 mail.example.net ESMTP Postfix (Ubuntu)\r\n' }] },
  { port: 21, transport: 'tcp', module: 'ftp', products: [{ product: 'ProFTPD', versions: { '1.3.5': ['CVE-2015-3306'], '1.3.8b': [] }, cpe: 'cpe:2.3:a:proftpd:proftpd', banner: (v) => `220 ProFTPD ${v} Server (Debian) ready.\r\n` }] },
  { port: 3306, transport: 'tcp', module: 'mysql', products: [{ product: 'MySQL', versions: { '5.7.33': ['CVE-2021-2307'], '8.0.36': [] }, cpe: 'cpe:2.3:a:oracle:mysql', banner: (v) => `J\u0000\u0000\u0000\n${v}\u0000` }] },
  { port: 5432, transport: 'tcp', module: 'postgresql', products: [{ product: 'PostgreSQL', versions: { '': [] }, cpe: 'cpe:2.3:a:postgresql:postgresql', banner: () => '\u0000\u0000\u0000\u0008\u0004\u00d2\u0016/' }] },
  { port: 6379, transport: 'tcp', module: 'redis', products: [{ product: 'Redis key-value store', versions: { '6.0.16': ['CVE-2022-24834'], '7.2.4': [] }, cpe: 'cpe:2.3:a:redis:redis', banner: (v) => `-NOAUTH Authentication required.\r\n# Server\r\nredis_version:${v}\r\n` }] },
  { port: 8080, transport: 'tcp', module: 'http', products: [{ product: 'Apache Tomcat', versions: { '9.0.30': ['CVE-2020-1938'], '10.1.24': [] }, cpe: 'cpe:2.3:a:apache:tomcat', banner: () => 'HTTP/1.1 200 \r\nContent-Type: text/html;charset=UTF-8\r\n\r\n' }] },
  { port: 3389, transport: 'tcp', module: 'rdp', products: [{ product: 'Remote Desktop Protocol', versions: { '': [] }, banner: () => '\u0003\u0000\u0000\u0013\u000e\u00d0\u0000\u0000\u00124\u0000\u0002\u0000\u0008\u0000\u0002\u0000\u0000\u0000' }] },
  { port: 123, transport: 'udp', module: 'ntp', products: [{ product: undefined, versions: { '': [] }, banner: () => 'NTP\n  protocolversion: 3\n  stratum: 2\n' }] },
  { port: 9200, transport: 'tcp', module: 'elastic', products: [{ product: 'Elastic', versions: { '7.10.2': [], '8.13.4': [] }, cpe: 'cpe:2.3:a:elastic:elasticsearch', banner: (v) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"version":{"number":"${v}"}}` }] },
];

const orgNamed = (name: string): Org => ORGS.find((o) => o.org === name)!;
const GOOGLE_DNS: Org = { ...orgNamed('Google LLC'), hostname: () => 'dns.google' };
const CLOUDFLARE_DNS: Org = { ...orgNamed('Cloudflare, Inc.'), hostname: () => 'one.one.one.one' };
/** Famous public resolvers keep their real owner, so demos look right. */
const WELL_KNOWN: Readonly<Record<string, Org>> = {
  '8.8.8.8': GOOGLE_DNS,
  '8.8.4.4': GOOGLE_DNS,
  '1.1.1.1': CLOUDFLARE_DNS,
  '1.0.0.1': CLOUDFLARE_DNS,
};

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inV4Range(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipv4ToInt(ip) / size) === Math.floor(ipv4ToInt(base) / size);
}

const UNKNOWN_V4 = [
  '192.0.2.0/24',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '127.0.0.0/8',
  '0.0.0.0/8',
  '169.254.0.0/16',
  '100.64.0.0/10',
  '224.0.0.0/3',
];

/** Documentation, private, loopback and other addresses Shodan never has a record for. */
export function isUnknownAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1]! : ip;
  if (isIP(v4) === 4) return UNKNOWN_V4.some((cidr) => inV4Range(v4, cidr));
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1).toLowerCase();
  const first = canonical.split(':');
  if (canonical === '::' || canonical === '::1') return true;
  if (first[0] === '2001' && first[1] === 'db8') return true;
  return /^f[cd]/.test(canonical) || /^fe[89ab]/.test(canonical);
}

/** Shodan's timestamp format: no zone suffix, six fractional digits. */
function shodanTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('Z', '')
    .replace(/\.(\d{3})$/, (_, frac: string) => `.${frac}${String(ms % 997).padStart(3, '0')}`);
}

/** What every banner of one host shares. */
interface HostFacts {
  ip: string;
  isV4: boolean;
  org: Org;
  hostnames: string[];
  domains: string[];
  asn: string | number;
  location: Record<string, unknown>;
  lastUpdateMs: number;
}

const HTTP_TITLES = ['Welcome to nginx!', 'Apache2 Ubuntu Default Page: It works', 'Login', '403 Forbidden'];

/** The `http` part of a web banner. */
function httpPart(rnd: SeededRandom, product: Product, version: string, ip: string): Record<string, unknown> {
  return {
    status: 200,
    title: rnd.pick(HTTP_TITLES),
    server: product.banner(version).split('\r\n')[1]?.replace('Server: ', '') ?? null,
    host: ip,
    location: '/',
    robots: null,
    sitemap: null,
    securitytxt: null,
  };
}

/** The `ssl` part of an HTTPS banner. */
function sslPart(hostnames: string[], ip: string): Record<string, unknown> {
  return {
    versions: ['TLSv1.2', 'TLSv1.3', '-SSLv3'],
    cert: {
      expired: false,
      subject: { CN: hostnames[0] ?? ip },
      issuer: { C: 'US', O: "Let's Encrypt", CN: 'R11' },
    },
  };
}

/** A banner's `vulns`: one entry per CVE of the product version. */
function vulnsPart(
  rnd: SeededRandom,
  product: Product,
  version: string,
  cves: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(
    cves.map((cve) => [
      cve,
      {
        verified: false,
        cvss: Math.round((5 + rnd.next() * 4.8) * 10) / 10,
        references: [`https://nvd.nist.gov/vuln/detail/${cve}`],
        summary: `A vulnerability in ${product.product ?? 'this service'} ${version} (${cve}).`,
      },
    ]),
  );
}

/** One service banner of a host; the CVEs it carries are appended to `allVulns`. */
function buildBanner(
  rnd: SeededRandom,
  host: HostFacts,
  spec: ServiceSpec,
  allVulns: string[],
): Record<string, unknown> {
  const { ip, hostnames } = host;
  const product = rnd.pick(spec.products);
  const version = rnd.pick(Object.keys(product.versions));
  const cves = product.versions[version] ?? [];
  allVulns.push(...cves);
  const banner: Record<string, unknown> = {
    hash: (hashSeed(ip, spec.port) | 0) - 0x40000000,
    ip: host.isV4 ? ipv4ToInt(ip) : undefined,
    ip_str: ip,
    port: spec.port,
    transport: spec.transport,
    data: product.banner(version || undefined),
    timestamp: shodanTime(host.lastUpdateMs - rnd.int(0, 72) * 3_600_000),
    hostnames,
    domains: host.domains,
    org: host.org.org,
    isp: host.org.isp,
    asn: host.asn,
    os: null,
    location: host.location,
    _shodan: {
      id: `${hashSeed(ip, spec.port, 'id').toString(16)}-${hashSeed(spec.module, ip).toString(16)}`,
      module: spec.module,
      crawler: hashSeed('crawler', ip).toString(16).padStart(8, '0').repeat(5),
      ptr: hostnames.length > 0,
      options: {},
      region: rnd.pick(['na', 'eu', 'ap']),
    },
  };
  if (product.product !== undefined) banner.product = product.product;
  if (version !== '') banner.version = version;
  if (product.cpe) banner.cpe23 = [`${product.cpe}:${version.split(' ')[0] ?? ''}`.replace(/:$/, '')];
  if (spec.module === 'http' || spec.module === 'https') banner.http = httpPart(rnd, product, version, ip);
  if (spec.module === 'https') banner.ssl = sslPart(hostnames, ip);
  if (cves.length > 0) banner.vulns = vulnsPart(rnd, product, version, cves);
  return banner;
}

function buildHost(ip: string, nowMs: number): Record<string, unknown> {
  const rnd: SeededRandom = seededRandom('hostscan', ip);
  const org = WELL_KNOWN[ip] ?? rnd.pick(ORGS);
  const isV4 = isIP(ip) === 4;
  const hostnames = org.hostname && isV4 ? [org.hostname(ip)] : [];
  const domains = hostnames.map((h) => h.split('.').slice(-2).join('.'));
  // Usually "AS15169", but Shodan has been seen sending the bare number.
  const asn: string | number = rnd.chance(0.15) ? org.asn : `AS${org.asn}`;
  const location = {
    city: org.city,
    region_code: org.region,
    area_code: null,
    longitude: org.lon,
    latitude: org.lat,
    country_code: org.country[0],
    country_name: org.country[1],
    postal_code: null,
  };
  const specs = rnd.sample(SERVICES, rnd.int(1, 6));
  const lastUpdateMs = nowMs - rnd.int(1, 14 * 24) * 3_600_000 - rnd.int(0, 3_599_999);
  const facts: HostFacts = { ip, isV4, org, hostnames, domains, asn, location, lastUpdateMs };
  const allVulns: string[] = [];
  const data = specs.map((spec) => buildBanner(rnd, facts, spec, allVulns));
  const host: Record<string, unknown> = {
    region_code: org.region,
    tags: rnd.chance(0.2) ? [rnd.pick(['cloud', 'cdn', 'vpn', 'self-signed', 'database'])] : [],
    ip: isV4 ? ipv4ToInt(ip) : undefined,
    area_code: null,
    domains,
    hostnames,
    postal_code: null,
    country_code: org.country[0],
    org: org.org,
    data,
    asn,
    city: org.city,
    latitude: org.lat,
    isp: org.isp,
    longitude: org.lon,
    last_update: shodanTime(lastUpdateMs),
    country_name: org.country[1],
    ip_str: ip,
    os: null,
    // Shodan lists ports in no particular order.
    ports: data.map((b) => b.port as number),
  };
  // The top-level `vulns` key is absent, not empty, when the host has none.
  if (allVulns.length > 0) host.vulns = [...new Set(allVulns)];
  return host;
}

export function hostscanHandlers(opts: HostscanHandlerOptions = {}): RequestHandler[] {
  // The clock is read to the day, so the same address gets the same answer all day long.
  const today = () => Math.floor((opts.now ?? Date.now)() / 86_400_000) * 86_400_000;
  return [
    http.get(route('hostscan', '/:provider/host/:ip'), ({ request, params }) => {
      if (params.provider !== 'shodan') {
        return HttpResponse.json({ error: 'Invalid API endpoint' }, { status: 404 });
      }
      const key = new URL(request.url).searchParams.get('key');
      if (key === null || key === '') {
        return new HttpResponse(NGINX_401, { status: 401, headers: { 'content-type': 'text/html' } });
      }
      if (key === HOSTSCAN_MAGIC.freePlanKey) {
        return HttpResponse.json({ error: 'Requires membership or higher to access' }, { status: 403 });
      }
      if (opts.credential !== undefined && key !== opts.credential) {
        return HttpResponse.json({ error: 'Invalid API key' }, { status: 401 });
      }
      const ip = String(params.ip);
      if (isIP(ip) === 0 || ip.includes('%'))
        return HttpResponse.json({ error: 'Invalid IP' }, { status: 400 });
      if (isUnknownAddress(ip)) {
        return HttpResponse.json({ error: 'No information available for that IP.' }, { status: 404 });
      }
      // JSON.stringify drops the `ip` key that is undefined for IPv6 hosts.
      return HttpResponse.json(JSON.parse(JSON.stringify(buildHost(ip, today()))) as Record<string, unknown>);
    }),
  ];
}
