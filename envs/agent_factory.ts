/**
 * `AgentFactory`: how an episode gets its agent, built fresh for one task of a domain (above both
 * the agent port and the domain, which declares its scripted playbook through the port).
 *
 * @module
 */
import type { Agent } from "./agent.ts";
import type { Domain } from "./domain.ts";
import type { Rng } from "./rng.ts";
import type { Task } from "./task.ts";

/** Builds a fresh agent for one episode from a seeded generator. `run` is the run index (0..K−1). */
export type AgentFactory = (options: { rng: Rng; domain: Domain; task: Task; run?: number }) => Agent;
