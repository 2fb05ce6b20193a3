import { TIME_ZONE_LINKS } from "@cloudcost/api/contract";
import { IANAZone } from "luxon";

/**
 * The zone luxon computes a schedule in. The contract accepts every IANA name as written (issue 37) and the
 * schedule keeps it; this runtime's ICU may predate a name (`Europe/Kyiv` arrived in ICU 72 as the new name
 * of `Europe/Kiev`), so a name ICU does not know is computed as another name of the same zone: its link
 * target, or a link to it (or to its target) that ICU knows.
 */
export function scheduleZone(name: string): string {
  if (IANAZone.isValidZone(name)) return name;
  const zone = TIME_ZONE_LINKS[name] ?? name;
  const sameZone = [zone, ...Object.keys(TIME_ZONE_LINKS).filter((alias) => TIME_ZONE_LINKS[alias] === zone)];
  return sameZone.find((candidate) => IANAZone.isValidZone(candidate)) ?? name;
}
