// A worker thread of the experiment runner (`_workers.ts`): it opens its own worlds, prepares the
// conditions exactly as the runner did (the same cells, the same models through the runner), and
// runs the cells it is given, `lanes` at once, posting each finished episode back. It asks for
// cells ahead so it never waits long; the runner decides which and whether any more start (budget,
// stop). Private to eval/.
import { getDomain, parseTaskId, type Task, World } from "../envs/mod.ts";
import type { ChatOptions, ChatRequest, ChatResponse, ModelClient } from "../agents/model/mod.ts";
import { prepareConditions, type PreparedConditions } from "./conditions/mod.ts";
import { runCell } from "./cell_run.ts";
import type { Cell } from "./cell.ts";
import type { ResolvedConfig } from "./config_types.ts";
import type { FinishedEpisode, ResultsSink } from "./sink.ts";
import { fromThreadError, type FromWorker, threadError, type ToWorker } from "./_worker_protocol.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker): void;
};
const post = (message: FromWorker) => scope.postMessage(message);

// How often a lane lets the thread take messages (a stop, more cells) while scripted episodes,
// which never wait on I/O, run back to back; it decides only when, never what is recorded.
const TURN_MS = 50;

interface State {
  config: ResolvedConfig;
  tasks: Map<string, Task>;
  todo: Cell[];
  conditions: PreparedConditions;
  models: ((spec: string) => ModelClient) | undefined;
}

let state: State | null = null;
const queue: number[] = [];
let ended = false; // no more cells will come
let asked = 0; // cells asked for and not yet given
const requests: number[] = []; // the cells each request not answered yet asked for
let chunk = 1;
let prefetch = true;
let idle = 0; // lanes waiting for a cell
let wake: (() => void) | null = null;
let lastTurn = performance.now();
const answers = new Map<number, PromiseWithResolvers<ChatResponse>>();
let nextCall = 0;

// Finished episodes not posted yet: scripted ones go a few at a time, at most OUTBOX_MS late.
const outbox: { index: number; json: string }[] = [];
const OUTBOX = 16;
const OUTBOX_MS = 20;
let lastSent = performance.now();

function send(): void {
  lastSent = performance.now();
  if (outbox.length === 0) return;
  post({ type: "episodes", episodes: outbox.splice(0) });
}

// A model client whose calls the runner's client answers.
function remoteModel(spec: string): ModelClient {
  const colon = spec.indexOf(":");
  return {
    provider: spec.slice(0, colon),
    model: spec.slice(colon + 1),
    chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse> {
      const id = nextCall++;
      const answer = Promise.withResolvers<ChatResponse>();
      answers.set(id, answer);
      post({
        type: "chat",
        id,
        spec,
        request,
        ...(options?.runIndex !== undefined ? { runIndex: options.runIndex } : {}),
      });
      return answer.promise;
    },
  };
}

// Asks the runner for cells: scripted ones a chunk ahead, so a lane never waits long; model-bound
// ones only for lanes that are free, so the runner's budget check comes right before each starts.
function askMore(): void {
  if (ended) return;
  const n = prefetch ? (asked === 0 && queue.length < chunk ? chunk : 0) : idle - queue.length - asked;
  if (n <= 0) return;
  asked += n;
  requests.push(n);
  post({ type: "want", n });
}

function notify(): void {
  const w = wake;
  wake = null;
  w?.();
}

// The sink of one cell's episode: it goes to the runner, with the cell's index.
function sinkOf(index: number): ResultsSink {
  return {
    add(episode: FinishedEpisode): boolean {
      outbox.push({ index, json: JSON.stringify(episode) });
      if (!prefetch || outbox.length >= OUTBOX || performance.now() - lastSent >= OUTBOX_MS) send();
      return true;
    },
    flush: () => {},
    finishedKeys: () => new Set(),
    count: () => 0,
    records: () => [],
    events: () => [],
    updateRecords: () => 0,
  };
}

async function lane(worlds: Map<string, World>): Promise<void> {
  const s = state!;
  while (true) {
    if (queue.length === 0) {
      send();
      if (ended) return;
      idle++;
      askMore();
      await new Promise<void>((resolve) => {
        const previous = wake;
        wake = () => {
          previous?.();
          resolve();
        };
      });
      idle--;
      continue;
    }
    const index = queue.shift()!;
    if (prefetch) askMore();
    const cell = s.todo[index];
    const task = s.tasks.get(cell.task)!;
    const name = parseTaskId(cell.task)!.domain;
    let world = worlds.get(name);
    if (world === undefined) worlds.set(name, world = World.open(getDomain(name), { seed: s.config.worldSeed }));
    try {
      await runCell(world, cell, {
        task,
        setup: s.conditions.setup(cell, { task, domain: world.domain }),
        config: s.config,
        sink: sinkOf(index),
        models: s.models,
        agents: undefined,
      });
    } catch (error) {
      send();
      post({ type: "failed", index, error: threadError(error) });
      stopAll();
      return;
    }
    if (performance.now() - lastTurn >= TURN_MS) {
      send();
      await new Promise((resolve) => setTimeout(resolve, 0));
      lastTurn = performance.now();
    }
  }
}

function stopAll(): void {
  ended = true;
  queue.length = 0;
  notify();
}

// The experiment (`open`) and its worlds, opened from the images the runner shares (`images`).
let opened: { config: ResolvedConfig; worlds: World[] } | null = null;

function openWorlds(): void {
  const { config, worlds } = opened!;
  if (worlds.length > 0) return;
  try {
    for (const name of config.domains) worlds.push(World.open(getDomain(name), { seed: config.worldSeed }));
  } catch {
    // The runner opened the same worlds first: it reports the error; this worker is ended unused.
  }
}

async function start(message: Extract<ToWorker, { type: "start" }>): Promise<void> {
  const { config, worlds } = opened!;
  const { todo, lanes } = message;
  const tasks = new Map(message.tasks);
  const models = message.models ? remoteModel : undefined;
  const conditions = await prepareConditions({ conditions: config.conditions, worlds, tasks, cells: todo, models });
  state = { config, tasks, todo, conditions, models };
  // Scripted episodes take a millisecond or so: ask for a few dozen at once. Model-bound ones may
  // cost money: one per free lane, so the runner's budget check comes before each.
  prefetch = !message.models;
  chunk = Math.max(32, lanes);
  const running: Promise<void>[] = [];
  for (let i = 0; i < lanes; i++) {
    // The worlds the conditions were prepared in serve the first lane.
    const own = new Map(i === 0 ? worlds.map((w) => [w.domain.name, w]) : []);
    running.push(lane(own).finally(() => own.forEach((w) => w.close())));
  }
  await Promise.all(running);
  send();
  post({ type: "done" });
}

scope.onmessage = ({ data }) => {
  if (data.type === "open") opened = { config: data.config, worlds: [] };
  else if (data.type === "images") {
    World.adopt(data.images);
    openWorlds();
  } else if (data.type === "start") {
    openWorlds();
    start(data).catch((error) => {
      send();
      post({ type: "failed", index: -1, error: threadError(error) });
      post({ type: "done" });
    });
  } else if (data.type === "cells") {
    asked -= requests.shift() ?? 0;
    // Once stopped (asked to, or after a failure here), cells that were on their way are not run.
    if (ended) return;
    if (data.indices.length === 0) ended = true;
    else queue.push(...data.indices);
    notify();
  } else if (data.type === "stop") {
    stopAll();
  } else if (data.type === "answer") {
    const answer = answers.get(data.id);
    answers.delete(data.id);
    if ("error" in data) answer?.reject(fromThreadError(data.error));
    else answer?.resolve(data.response);
  }
};
