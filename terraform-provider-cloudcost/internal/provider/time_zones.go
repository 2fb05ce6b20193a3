package provider

import (
	_ "embed"
	"strings"
)

// timeZonesFile is every name of the IANA time zone database, zones and links (api/src/contract/time-zones.json,
// written with this copy by `npm run time-zones`; contract_values_test.go holds the two equal). Not
// time.LoadLocation: it reads the machine's zoneinfo folder first, which differs between machines and holds
// names the database does not give (`posix/…`, `right/…`, `Factory`).
//
//go:embed time_zones.txt
var timeZonesFile string

var timeZoneNames = func() map[string]bool {
	names := map[string]bool{}
	for _, name := range strings.Fields(timeZonesFile) {
		names[name] = true
	}
	return names
}()
