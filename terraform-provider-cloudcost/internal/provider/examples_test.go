package provider_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every example of examples/ (the pages of docs/ show them) is valid configuration for this provider on its
// own, as a reader copies it: `tofu validate` on each alone, with the provider's source address added where
// the example has none (an example needing another's resource declares a variable for it instead).
func TestAccExamplesValidate(t *testing.T) {
	acceptance(t)
	examples, _ := filepath.Glob(filepath.Join(repoRoot, "terraform-provider-cloudcost", "examples", "*", "*.tf"))
	nested, _ := filepath.Glob(filepath.Join(repoRoot, "terraform-provider-cloudcost", "examples", "*", "*", "*.tf"))
	examples = append(examples, nested...)
	if len(examples) == 0 {
		t.Fatal("no examples found")
	}
	for _, file := range examples {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		config := string(data)
		if strings.Contains(config, "required_providers") {
			config = strings.Replace(config, header, "", 1)
		}
		d := newTofuDir(t, config)
		if strings.Contains(config, "required_providers") {
			if err := os.WriteFile(filepath.Join(d.dir, "main.tf"), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if out, code := d.run(t, "validate"); code != 0 {
			rel, _ := filepath.Rel(repoRoot, file)
			t.Errorf("%s: tofu validate: exit %d\n%s", rel, code, out)
		}
	}
}
