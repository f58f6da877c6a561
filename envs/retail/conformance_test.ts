// The domain conformance suite (tests/fixtures/conformance.ts) on the retail world, which is not
// registered yet: the suite needs nothing but the domain value.
import { conformance } from "../../tests/fixtures/conformance.ts";
import { retail } from "./mod.ts";

conformance(retail);
