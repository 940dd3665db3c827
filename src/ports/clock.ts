/** Time, injectable so budgets and back-off can be tested without waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}
