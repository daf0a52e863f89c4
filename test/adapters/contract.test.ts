// Runs the shared adapter contract (contract.ts) against all three adapters (drivers.ts).
import { runAdapterContract } from './contract.ts';
import { consoleDriver, discordDriver, slackDriver } from './drivers.ts';

runAdapterContract('console', consoleDriver);
runAdapterContract('Discord', discordDriver);
runAdapterContract('Slack', slackDriver);
