// The replies' formatting lives in src/format.ts, the one module that commands, jobs and adapters
// share (numbers, units, sizes, percentages, dates). Re-exported here for the commands.
export * from '../src/format.ts';
