// Profiles one contender of one scenario and prints where its CPU time went:
//   npm run build && node bench/profile.mjs <a|b|c|d> <contender> [top]
// e.g. `node bench/profile.mjs a lattice` or `node bench/profile.mjs c raw-sdk 25`. The .cpuprofile
// is kept under bench/results/profiles/ (open it in Chrome DevTools or VS Code for the call tree).
import { profileContender, profileText } from "./lib/profiling.mjs";

const [scenario = "a", id = "lattice", top = "15"] = process.argv.slice(2);
const summary = await profileContender(scenario, id, { top: Number(top) });
process.stdout.write(`${profileText(summary)}\n`);
