// The domain conformance suite (`conformance()` of ./testing) on every registered domain, and on the
// toy bank, which is not registered: the suite needs nothing but the domain value.
import { domains } from "../envs/mod.ts";
import { conformance } from "../testing/mod.ts";
import { toy } from "./fixtures/toy_domain.ts";

for (const domain of Object.values(domains)) conformance(domain);
// The toy bank has no abstention scenarios.
conformance(toy, { scenarios: 0 });
