// Wire schemas of Adzuna's job search (docs/SERVICES.md S8). Only the
// fields herald reads are listed; the rest (__CLASS__, adref, category, latitude, …) is dropped
// unread. Salary and contract fields are often absent rather than null, and salary_is_predicted is
// the string "0" or "1" (older answers: 0 or 1).
import { z } from 'zod';

const DisplayName = z.object({
  display_name: z.string().nullish(),
});

const JobResponse = z.object({
  id: z.union([z.string(), z.number()]),
  title: z.string(),
  company: DisplayName.nullish(),
  location: DisplayName.nullish(),
  salary_min: z.number().nullish(),
  salary_max: z.number().nullish(),
  salary_is_predicted: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  created: z.string().nullish(),
  redirect_url: z.string().nullish(),
  contract_type: z.string().nullish(),
  contract_time: z.string().nullish(),
});

export const JobSearchResponse = z.object({
  count: z.number().int().nonnegative(),
  mean: z.number().nullish(),
  results: z.array(JobResponse),
});

/** `{"__CLASS__": "Adzuna::API::Response::Exception", "exception": "AUTH_FAIL", "display": …, "doc": …}` */
export const AdzunaErrorResponse = z.object({
  exception: z.string(),
  display: z.string().nullish(),
});

export type JobWire = z.output<typeof JobResponse>;
export type JobSearchWire = z.output<typeof JobSearchResponse>;
