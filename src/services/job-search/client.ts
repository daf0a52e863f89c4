import type { CallOptions } from '../../http/client.ts';
import type { ClientDeps, Closable } from '../deps.ts';

export interface JobSearchConfig {
  baseUrl: string;
  appId: string;
  apiKey: string;
  /** Default country code when a search names none. */
  country: string;
}

/** Adzuna's current countries (API-NOTES.md, S8 "Countries"). */
export declare const JOB_COUNTRIES: readonly string[];

export interface JobSearchInput {
  /** Lower-case ISO code from JOB_COUNTRIES. */
  country: string;
  /** 1-based. */
  page: number;
  what: string;
  where?: string;
  resultsPerPage?: number;
}

export interface JobListing {
  id: string;
  title: string;
  company: string | undefined;
  location: string | undefined;
  salaryMin: number | undefined;
  salaryMax: number | undefined;
  salaryIsPredicted: boolean;
  created: Date | undefined;
  url: string | undefined;
  contractTime: string | undefined;
  contractType: string | undefined;
}

export interface JobSearchResult {
  count: number;
  results: JobListing[];
  meanSalary: number | undefined;
}

export interface JobSearchClient extends Closable {
  search(input: JobSearchInput, opts?: CallOptions): Promise<JobSearchResult>;
}

export declare function createJobSearchClient(config: JobSearchConfig, deps?: ClientDeps): JobSearchClient;
