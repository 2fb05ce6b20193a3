#!/usr/bin/env node
// Writes the IANA time-zone names the contract accepts (issue 37): every zone and every link the IANA
// database names, from moment-timezone's copy of the latest release (a well-kept package, updated with each
// tz release), into api/src/contract/time-zones.json (the contract's TimeZone, the sandbox's link targets)
// and terraform-provider-cloudcost/internal/provider/time_zones.txt (the Go provider's plan-time check, held
// equal to the JSON by a Go test). Run after updating moment-timezone: `npm run time-zones`.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const packed = require("moment-timezone/data/packed/latest.json");

const root = path.join(__dirname, "..");
// Packed zones are "Name|abbreviations|offsets|…"; links are "Target|Alias" (both IANA names).
const zones = packed.zones.map((z) => z.slice(0, z.indexOf("|")));
const links = Object.fromEntries(
  packed.links.map((l) => {
    const [target, alias] = l.split("|");
    return [alias, target];
  }),
);
const names = [...new Set([...zones, ...Object.keys(links)])].sort();
const sortedLinks = Object.fromEntries(Object.entries(links).sort(([a], [b]) => (a < b ? -1 : 1)));

const json = { release: packed.version, source: "moment-timezone/data/packed/latest.json", names, links: sortedLinks };
fs.writeFileSync(path.join(root, "api/src/contract/time-zones.json"), JSON.stringify(json, null, 2) + "\n");
fs.writeFileSync(path.join(root, "terraform-provider-cloudcost/internal/provider/time_zones.txt"), names.join("\n") + "\n");
console.log(`IANA ${packed.version}: ${names.length} names (${zones.length} zones, ${Object.keys(links).length} links)`);
