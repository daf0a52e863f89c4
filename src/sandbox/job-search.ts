// Simulated Adzuna job search (docs/SERVICES.md S8): GET /jobs/{country}/search/{page}
// answers a deterministic count and page of believable listings for any search, honours page and
// results_per_page, and fails like Adzuna: 401 AUTH_FAIL, 404 UNSUPPORTED_COUNTRY.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route, type HandlerOptions } from './layout.ts';
import { hashSeed, seededRandom, type SeededRandom } from './seeded-random.ts';

interface JobSearchHandlerOptions extends HandlerOptions {
  /** Clock for `created` (read to the day, so answers stay the same all day). */
  now?: () => number;
}

/** Inputs that make the simulator answer like Adzuna's edge cases (for demos and tests). */
export const JOB_SEARCH_MAGIC = Object.freeze({
  /** `what` with no matches: 200 with count 0, as Adzuna answers. */
  noResults: 'nothing',
  /** `where` set to a country's name also gives count 0 on Adzuna (it is not a location). */
  countryNameAsWhere: 'United Kingdom',
});

const CLASS = 'Adzuna::API::Response';
const DOC = 'https://api.adzuna.com/v1/doc';

interface Country {
  name: string;
  domain: string;
  /** Yearly salary range in local currency, and the company suffix. */
  salary: [min: number, max: number];
  suffix: string;
  places: readonly [display: string, area: readonly string[]][];
}

// prettier-ignore
const COUNTRIES: Readonly<Record<string, Country>> = {
  at: { name: 'Austria', domain: 'adzuna.at', salary: [38_000, 90_000], suffix: 'GmbH', places: [['Wien', ['Österreich', 'Wien']], ['Graz, Steiermark', ['Österreich', 'Steiermark', 'Graz']], ['Linz, Oberösterreich', ['Österreich', 'Oberösterreich', 'Linz']]] },
  au: { name: 'Australia', domain: 'adzuna.com.au', salary: [70_000, 180_000], suffix: 'Pty Ltd', places: [['Sydney, New South Wales', ['Australia', 'New South Wales', 'Sydney']], ['Melbourne, Victoria', ['Australia', 'Victoria', 'Melbourne']], ['Brisbane, Queensland', ['Australia', 'Queensland', 'Brisbane']]] },
  be: { name: 'Belgium', domain: 'adzuna.be', salary: [35_000, 85_000], suffix: 'NV', places: [['Bruxelles', ['Belgique', 'Bruxelles']], ['Antwerpen', ['Belgique', 'Flandre', 'Antwerpen']], ['Gent', ['Belgique', 'Flandre', 'Gent']]] },
  br: { name: 'Brazil', domain: 'adzuna.com.br', salary: [36_000, 180_000], suffix: 'Ltda', places: [['São Paulo, SP', ['Brasil', 'São Paulo', 'São Paulo']], ['Rio de Janeiro, RJ', ['Brasil', 'Rio de Janeiro']], ['Curitiba, PR', ['Brasil', 'Paraná', 'Curitiba']]] },
  ca: { name: 'Canada', domain: 'adzuna.ca', salary: [55_000, 150_000], suffix: 'Inc.', places: [['Toronto, Ontario', ['Canada', 'Ontario', 'Toronto']], ['Vancouver, British Columbia', ['Canada', 'British Columbia', 'Vancouver']], ['Montréal, Québec', ['Canada', 'Québec', 'Montréal']]] },
  ch: { name: 'Switzerland', domain: 'adzuna.ch', salary: [80_000, 160_000], suffix: 'AG', places: [['Zürich', ['Schweiz', 'Zürich']], ['Genève', ['Schweiz', 'Genève']], ['Basel', ['Schweiz', 'Basel-Stadt', 'Basel']]] },
  de: { name: 'Germany', domain: 'adzuna.de', salary: [42_000, 95_000], suffix: 'GmbH', places: [['Berlin', ['Deutschland', 'Berlin']], ['München, Bayern', ['Deutschland', 'Bayern', 'München']], ['Hamburg', ['Deutschland', 'Hamburg']]] },
  es: { name: 'Spain', domain: 'adzuna.es', salary: [24_000, 65_000], suffix: 'S.L.', places: [['Madrid', ['España', 'Comunidad de Madrid', 'Madrid']], ['Barcelona, Cataluña', ['España', 'Cataluña', 'Barcelona']], ['Valencia', ['España', 'Comunidad Valenciana', 'Valencia']]] },
  fr: { name: 'France', domain: 'adzuna.fr', salary: [32_000, 80_000], suffix: 'SAS', places: [['Paris, Île-de-France', ['France', 'Île-de-France', 'Paris']], ['Lyon, Rhône', ['France', 'Auvergne-Rhône-Alpes', 'Lyon']], ['Toulouse, Haute-Garonne', ['France', 'Occitanie', 'Toulouse']]] },
  gb: { name: 'United Kingdom', domain: 'adzuna.co.uk', salary: [26_000, 95_000], suffix: 'Ltd', places: [['London', ['UK', 'London']], ['Manchester, Greater Manchester', ['UK', 'North West England', 'Greater Manchester', 'Manchester']], ['Marlow, Buckinghamshire', ['UK', 'South East England', 'Buckinghamshire', 'Marlow']], ['Leeds, West Yorkshire', ['UK', 'Yorkshire And The Humber', 'West Yorkshire', 'Leeds']]] },
  in: { name: 'India', domain: 'adzuna.in', salary: [400_000, 3_000_000], suffix: 'Pvt Ltd', places: [['Bangalore, Karnataka', ['India', 'Karnataka', 'Bangalore']], ['Pune, Maharashtra', ['India', 'Maharashtra', 'Pune']], ['Hyderabad, Telangana', ['India', 'Telangana', 'Hyderabad']]] },
  it: { name: 'Italy', domain: 'adzuna.it', salary: [26_000, 65_000], suffix: 'S.r.l.', places: [['Milano, Lombardia', ['Italia', 'Lombardia', 'Milano']], ['Roma, Lazio', ['Italia', 'Lazio', 'Roma']], ['Torino, Piemonte', ['Italia', 'Piemonte', 'Torino']]] },
  mx: { name: 'Mexico', domain: 'adzuna.com.mx', salary: [180_000, 900_000], suffix: 'S.A. de C.V.', places: [['Ciudad de México', ['México', 'Ciudad de México']], ['Guadalajara, Jalisco', ['México', 'Jalisco', 'Guadalajara']], ['Monterrey, Nuevo León', ['México', 'Nuevo León', 'Monterrey']]] },
  nl: { name: 'Netherlands', domain: 'adzuna.nl', salary: [38_000, 90_000], suffix: 'B.V.', places: [['Amsterdam, Noord-Holland', ['Nederland', 'Noord-Holland', 'Amsterdam']], ['Rotterdam, Zuid-Holland', ['Nederland', 'Zuid-Holland', 'Rotterdam']], ['Utrecht', ['Nederland', 'Utrecht']]] },
  nz: { name: 'New Zealand', domain: 'adzuna.co.nz', salary: [60_000, 150_000], suffix: 'Limited', places: [['Auckland', ['New Zealand', 'Auckland']], ['Wellington', ['New Zealand', 'Wellington']], ['Christchurch, Canterbury', ['New Zealand', 'Canterbury', 'Christchurch']]] },
  pl: { name: 'Poland', domain: 'adzuna.pl', salary: [72_000, 300_000], suffix: 'Sp. z o.o.', places: [['Warszawa, mazowieckie', ['Polska', 'mazowieckie', 'Warszawa']], ['Kraków, małopolskie', ['Polska', 'małopolskie', 'Kraków']], ['Wrocław, dolnośląskie', ['Polska', 'dolnośląskie', 'Wrocław']]] },
  sg: { name: 'Singapore', domain: 'adzuna.sg', salary: [48_000, 180_000], suffix: 'Pte Ltd', places: [['Singapore', ['Singapore']], ['Central Region', ['Singapore', 'Central Region']]] },
  us: { name: 'United States', domain: 'adzuna.com', salary: [55_000, 210_000], suffix: 'Inc.', places: [['Austin, Travis County', ['US', 'Texas', 'Travis County', 'Austin']], ['New York City, New York', ['US', 'New York', 'New York City']], ['Seattle, King County', ['US', 'Washington', 'King County', 'Seattle']], ['Chicago, Cook County', ['US', 'Illinois', 'Cook County', 'Chicago']]] },
  za: { name: 'South Africa', domain: 'adzuna.co.za', salary: [240_000, 1_200_000], suffix: '(Pty) Ltd', places: [['Cape Town, Western Cape', ['South Africa', 'Western Cape', 'Cape Town']], ['Johannesburg, Gauteng', ['South Africa', 'Gauteng', 'Johannesburg']], ['Durban, KwaZulu-Natal', ['South Africa', 'KwaZulu-Natal', 'Durban']]] },
};

export const SANDBOX_JOB_COUNTRIES: readonly string[] = Object.keys(COUNTRIES);

const COMPANIES = [
  'Acme',
  'Northwind Traders',
  'Blue Harbour Digital',
  'Kestrel Analytics',
  'Brightwave Systems',
  'Harper & Finch',
  'Meridian Health Group',
  'Ironbridge Consulting',
  'Lumen Retail',
  'Cobalt Fintech',
  'Oakridge Logistics',
  'Vertex Recruitment',
  'Silverline Software',
  'Fernhill Foods',
];
const SENIORITY = ['Senior ', 'Junior ', 'Lead ', 'Principal ', '', '', ''];
const ROLES = ['Developer', 'Engineer', 'Specialist', 'Analyst', 'Consultant', 'Manager'];
const SUFFIXES = [' - Remote', ' (Hybrid)', ' - Contract', ' - Graduate Scheme', '', '', '', ''];
const GENERIC_TITLES = [
  'Customer Service Advisor',
  'Warehouse Operative',
  'Registered Nurse',
  'Software Engineer',
  'Accounts Assistant',
  'Sales Executive',
  'Project Manager',
  'Data Analyst',
];
const CATEGORIES: readonly [tag: string, label: string][] = [
  ['it-jobs', 'IT Jobs'],
  ['engineering-jobs', 'Engineering Jobs'],
  ['consultancy-jobs', 'Consultancy Jobs'],
  ['sales-jobs', 'Sales Jobs'],
  ['healthcare-nursing-jobs', 'Healthcare & Nursing Jobs'],
  ['accounting-finance-jobs', 'Accounting & Finance Jobs'],
];

const titleCase = (text: string): string =>
  text.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());

function exception(status: number, name: string, display: string): Response {
  return HttpResponse.json(
    { __CLASS__: `${CLASS}::Exception`, exception: name, display, doc: DOC },
    { status },
  );
}

function jobTitle(rnd: SeededRandom, what: string): string {
  const words = what.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return rnd.pick(GENERIC_TITLES);
  const core = titleCase(words.join(' '));
  const role = words.length === 1 ? ` ${rnd.pick(ROLES)}` : '';
  return `${rnd.pick(SENIORITY)}${core}${role}${rnd.pick(SUFFIXES)}`;
}

/** Adzuna cuts descriptions at about 500 characters, mid-word. */
function description(rnd: SeededRandom, title: string, company: string, place: string): string {
  const text =
    `${company} are looking for a ${title} to join their growing team in ${place}. ` +
    `You will work with ${rnd.pick(['a friendly', 'an award-winning', 'a fast-moving', 'a collaborative'])} team on ` +
    `${rnd.pick(['customer-facing products', 'internal platforms', 'data pipelines', 'public sector projects'])}, ` +
    `with ${rnd.pick(['flexible hours', 'a generous pension', 'private healthcare', 'a learning budget'])} and ` +
    `${rnd.pick(['25 days holiday', 'hybrid working', 'share options', 'an annual bonus'])}. The ideal candidate has ` +
    `${rnd.int(2, 8)}+ years of experience, strong communication skills and a passion for doing things properly. ` +
    'Apply today with your CV and a short note about why this role interests you; we review every application ' +
    'and aim to reply within five working days.';
  return `${text.slice(0, rnd.int(420, 500)).trimEnd()}…`;
}

function listing(country: string, c: Country, what: string, where: string, index: number, todayMs: number) {
  const rnd = seededRandom('jobs', country, what, where.toLowerCase(), index);
  const title = jobTitle(rnd, what);
  const company = `${rnd.pick(COMPANIES)} ${c.suffix}`;
  const [display, area] =
    where === '' ? rnd.pick(c.places) : [titleCase(where), [c.places[0]![1][0]!, titleCase(where)]];
  const id = String(
    1_000_000_000 + (hashSeed('job-id', country, what, where.toLowerCase(), index) % 4_000_000_000),
  );
  const [category, label] = rnd.pick(CATEGORIES);
  const job: Record<string, unknown> = {
    __CLASS__: `${CLASS}::Job`,
    id,
    adref: Buffer.from(JSON.stringify({ i: id, s: hashSeed(id).toString(36) })).toString('base64url'),
    title,
    description: description(rnd, title, company, display),
    created: new Date(todayMs - rnd.int(1, 30 * 24) * 3_600_000 - rnd.int(0, 3599) * 1000)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z'),
    redirect_url: `https://www.${c.domain}/jobs/land/ad/${id}?se=${hashSeed('se', id).toString(36)}&utm_medium=api&utm_source=087b8936&v=${hashSeed('v', id).toString(16).slice(0, 3).toUpperCase()}`,
    company: { __CLASS__: `${CLASS}::Company`, display_name: company },
    location: { __CLASS__: `${CLASS}::Location`, display_name: display, area },
    category: { __CLASS__: `${CLASS}::Category`, tag: category, label },
  };
  if (rnd.chance(0.7)) {
    job.latitude = Math.round((40 + rnd.next() * 15) * 1e6) / 1e6;
    job.longitude = Math.round((-5 + rnd.next() * 20) * 1e6) / 1e6;
  }
  // About one listing in five has no salary at all (the keys are absent, not null).
  if (rnd.chance(0.8)) {
    const [low, high] = c.salary;
    const min = low + rnd.next() * (high - low) * 0.7;
    const max = min * (1 + rnd.next() * 0.35);
    const predicted = rnd.chance(0.45);
    const round = (n: number) => (predicted ? Math.round(n * 100) / 100 : Math.round(n / 1000) * 1000);
    job.salary_min = round(min);
    job.salary_max = predicted ? job.salary_min : round(max);
    job.salary_is_predicted = predicted ? '1' : '0';
  }
  if (rnd.chance(0.6)) job.contract_type = rnd.pick(['permanent', 'permanent', 'contract']);
  if (rnd.chance(0.7)) job.contract_time = rnd.pick(['full_time', 'full_time', 'part_time']);
  return job;
}

export function jobSearchHandlers(opts: JobSearchHandlerOptions = {}): RequestHandler[] {
  const today = () => Math.floor((opts.now ?? Date.now)() / 86_400_000) * 86_400_000;
  return [
    http.get(route('jobSearch', '/jobs/:country/search/:page'), ({ request, params }) => {
      const query = new URL(request.url).searchParams;
      const appId = query.get('app_id') ?? '';
      const appKey = query.get('app_key') ?? '';
      if (appId === '' || appKey === '' || (opts.credential !== undefined && appKey !== opts.credential)) {
        return exception(401, 'AUTH_FAIL', 'Authorisation failed');
      }
      const country = String(params.country);
      const c = COUNTRIES[country];
      if (!c) {
        return exception(
          404,
          'UNSUPPORTED_COUNTRY',
          `The currently supported ISO 3166 country codes are ${SANDBOX_JOB_COUNTRIES.join(', ')}`,
        );
      }
      const pageText = String(params.page);
      const perPageText = query.get('results_per_page') ?? '10';
      if (!/^[1-9]\d{0,5}$/.test(pageText))
        return exception(400, 'INVALID_PARAMETER', 'page must be a positive integer');
      if (!/^\d{1,6}$/.test(perPageText)) {
        return exception(400, 'INVALID_PARAMETER', 'results_per_page must be a positive integer');
      }
      const page = Number(pageText);
      // Adzuna's cap is 50 a page; the simulator clamps rather than refusing.
      const perPage = Math.min(Math.max(Number(perPageText), 1), 50);
      const what = (query.get('what') ?? '').trim().toLowerCase();
      const where = (query.get('where') ?? '').trim();
      const isCountryName = Object.values(COUNTRIES).some(
        (k) => k.name.toLowerCase() === where.toLowerCase(),
      );
      const rnd = seededRandom('jobs-count', country, what, where.toLowerCase());
      const count =
        what === JOB_SEARCH_MAGIC.noResults || isCountryName
          ? 0
          : Math.floor(Math.exp(Math.log(8) + rnd.next() * Math.log(9_000 / 8)));
      const start = (page - 1) * perPage;
      const results = Array.from({ length: Math.max(0, Math.min(perPage, count - start)) }, (_, i) =>
        listing(country, c, what, where, start + i, today()),
      );
      const body: Record<string, unknown> = { __CLASS__: `${CLASS}::JobSearchResults`, count, results };
      if (count > 0)
        body.mean = Math.round((c.salary[0] + rnd.next() * (c.salary[1] - c.salary[0]) * 0.6) * 100) / 100;
      return HttpResponse.json(body);
    }),
  ];
}
