package provider

import (
	"encoding/json"
	"strings"
	"testing"
)

// What the private state records about a webhook: never the URL, and enough to tell a changed URL, a change
// made outside and an import apart (write_only_webhook.go). The plans these lead to are proven through the real
// `tofu` in write_only_webhook_test.go.
func TestWebhookRecord(t *testing.T) {
	first, second := "https://hooks.example.com/a/s3cr3t-1", "https://hooks.example.com/a/s3cr3t-2"

	created := webhookRecord{}.written(&first, true, &first)
	data, _ := json.Marshal(created)
	if strings.Contains(string(data), "s3cr3t") || strings.Contains(string(data), "hooks.example.com") {
		t.Fatalf("the record holds the URL: %s", data)
	}
	if !created.sentIs(first) || created.sentIs(second) {
		t.Errorf("the record should recognise the URL sent and only it")
	}
	if other := (webhookRecord{}).written(&first, true, &first); string(other.Sent) == string(created.Sent) {
		t.Errorf("two resources with the same URL should not record the same digest (per-resource salt)")
	}

	var reloaded webhookRecord
	if err := json.Unmarshal(data, &reloaded); err != nil || !reloaded.sentIs(first) {
		t.Errorf("the record should survive the private state's JSON: %v", err)
	}
	if same := created.refreshed(&first); !same.sentIs(first) {
		t.Errorf("a refresh finding the URL sent should keep it as sent")
	}
	if drifted := created.refreshed(&second); drifted.sentIs(first) || drifted.sentIs(second) {
		t.Errorf("a refresh finding another URL should forget what was sent, so the configured one is sent again")
	}
	if removed := created.refreshed(nil); removed.sentIs(first) || len(removed.Held) != 0 {
		t.Errorf("a refresh finding no webhook should forget what was sent")
	}

	imported := webhookRecord{Form: formImported}.refreshed(&first)
	if !imported.sentIs(first) || imported.sentIs(second) || imported.urlInState() {
		t.Errorf("an import should take the service's URL as the one the configuration names, and keep it out of the state")
	}
	legacy := webhookRecord{Form: formWriteOnly}.refreshed(&first)
	if !legacy.sentIs(first) {
		t.Errorf("a record of an earlier version (no digests) should adopt the service's URL at its first refresh")
	}
	if plain := (webhookRecord{}).written(&first, false, &first); plain.urlInState() != true || plain.sentIs(first) {
		t.Errorf("the plain form keeps the URL in the state and records nothing as sent write-only")
	}
}
