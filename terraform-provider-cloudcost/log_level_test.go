package main

import (
	"maps"
	"testing"
)

// The provider's loggers take the level at which the host shows provider lines, read as OpenTofu reads it;
// a level the user set for one logger is kept.
func TestLogAtHostLevel(t *testing.T) {
	quiet := map[string]string{"TF_LOG_PROVIDER_CLOUDCOST": "OFF", "TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF"}
	debug := map[string]string{"TF_LOG": "debug", "TF_LOG_PROVIDER_CLOUDCOST": "DEBUG", "TF_LOG_SDK": "DEBUG", "TF_LOG_SDK_PROTO": "DEBUG", "TF_LOG_SDK_FRAMEWORK": "DEBUG"}
	cases := []struct {
		name      string
		env, want map[string]string
	}{
		{"nothing set: the host shows no provider line", map[string]string{}, quiet},
		{"TF_LOG, in any case", map[string]string{"TF_LOG": "debug"}, debug},
		{"TF_LOG_PROVIDER before TF_LOG", map[string]string{"TF_LOG": "DEBUG", "TF_LOG_PROVIDER": "warn"},
			map[string]string{"TF_LOG": "DEBUG", "TF_LOG_PROVIDER": "warn", "TF_LOG_PROVIDER_CLOUDCOST": "WARN", "TF_LOG_SDK": "WARN", "TF_LOG_SDK_PROTO": "WARN", "TF_LOG_SDK_FRAMEWORK": "WARN"}},
		{"TF_LOG=JSON is TRACE: nothing changes", map[string]string{"TF_LOG": "JSON"}, map[string]string{"TF_LOG": "JSON"}},
		{"a word the host does not know is TRACE", map[string]string{"TF_LOG": "verbose"}, map[string]string{"TF_LOG": "verbose"}},
		{"TRACE changes nothing", map[string]string{"TF_LOG": "TRACE"}, map[string]string{"TF_LOG": "TRACE"}},
		{"a logger's own level is kept", map[string]string{"TF_LOG_SDK_FRAMEWORK": "TRACE"},
			map[string]string{"TF_LOG_PROVIDER_CLOUDCOST": "OFF", "TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "TRACE"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := maps.Clone(c.env)
			logAtHostLevel(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
			if !maps.Equal(env, c.want) {
				t.Errorf("got %v, want %v", env, c.want)
			}
		})
	}
}
