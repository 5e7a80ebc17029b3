/** A request of the command line or of a checker that cannot be carried out as asked (exit code 2 in the CLI). */
export class UsageError extends Error {}
