// The agent an outside caller drives (`RemoteEpisode`): the episode loop asks it for each action and
// it waits until the caller hands one over, then hands the caller what the agent observes next.
import type { AgentAction, AgentContext, AgentReport, Observation } from "../envs/mod.ts";

// A value to wait for, settled from elsewhere.
export class Deferred<T> {
  resolve!: (value: T) => void;
  readonly promise: Promise<T>;
  constructor() {
    this.promise = new Promise<T>((resolve) => this.resolve = resolve);
  }
}

/** The agent an outside caller drives: it waits for each action and hands over what it observes. */
export class PushAgent {
  readonly name: string;
  context: AgentContext | null = null;
  /** The observation the next action answers, once the episode has asked for one. */
  observed = new Deferred<Observation>();
  /** Settled when the episode is over and asks the agent for its report (`finish`). */
  readonly finishing = new Deferred<void>();
  #action: Deferred<AgentAction> | null = null;
  #report: Deferred<AgentReport> | null = null;
  #endedByAgent = false;

  constructor(name: string) {
    this.name = name;
  }
  start(ctx: AgentContext): void {
    this.context = ctx;
  }
  step(obs: Observation): Promise<AgentAction> {
    this.#action = new Deferred<AgentAction>();
    this.observed.resolve(obs);
    return this.#action.promise;
  }
  // The episode is over: an agent that ended it has said all; otherwise it is asked for its
  // confidence, which the caller gives by ending the episode too.
  finish(): Promise<AgentReport> | AgentReport {
    this.#action = null;
    this.finishing.resolve();
    if (this.#endedByAgent) return {};
    this.#report = new Deferred<AgentReport>();
    return this.#report.promise;
  }
  /** Whether the episode waits for an action. */
  get waiting(): boolean {
    return this.#action !== null;
  }
  /** Whether the episode is over and waits for the agent's report. */
  get reporting(): boolean {
    return this.#report !== null;
  }
  /** Hands the waiting episode an action; the next observation is then awaited afresh. */
  act(action: AgentAction): void {
    const pending = this.#action;
    this.#action = null;
    this.observed = new Deferred<Observation>();
    if (action.type === "end") this.#endedByAgent = true;
    pending?.resolve(action);
  }
  /** Gives the report of an episode that ended otherwise. */
  report(report: AgentReport): void {
    const pending = this.#report;
    this.#report = null;
    pending?.resolve(report);
  }
}
