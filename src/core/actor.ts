/** Who ran a command, as the platform identifies them. */
export interface Actor {
  platform: 'console' | 'discord' | 'slack';
  /** Platform user id; "local" on the console. */
  id: string;
  displayName: string;
  /** Discord role ids; empty elsewhere. */
  roles: readonly string[];
  /** The console user is the local operator and may run every command. */
  isOperator?: boolean;
}
