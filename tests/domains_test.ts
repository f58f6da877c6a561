// The domain conformance suite (tests/fixtures/conformance.ts) on every registered domain, and on the
// toy bank, which is not registered: the suite needs nothing but the domain value.
import { domains } from "../envs/mod.ts";
import { conformance } from "./fixtures/conformance.ts";
import { toy } from "./fixtures/toy_domain.ts";

for (const domain of Object.values(domains)) conformance(domain);
conformance(toy);
