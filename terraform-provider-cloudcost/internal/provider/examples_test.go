package provider_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every example of examples/ (the pages of docs/ show them) is valid configuration for this provider. They
// are validated together, as one configuration with one file per example, because an example may use what
// another declares (an alert's group_id = cloudcost_cloud_group.platform.id), as users read them together;
// tofu names the file, hence the example, of any error.
func TestAccExamplesValidate(t *testing.T) {
	acceptance(t)
	root := filepath.Join(repoRoot, "terraform-provider-cloudcost", "examples")
	var examples []string
	err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(path, ".tf") {
			examples = append(examples, path)
		}
		return err
	})
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples found (%v)", err)
	}
	d := newTofuDir(t, "")
	// provider.tf declares the source address itself.
	if err := os.Remove(filepath.Join(d.dir, "main.tf")); err != nil {
		t.Fatal(err)
	}
	for _, file := range examples {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, file)
		if err := os.WriteFile(filepath.Join(d.dir, strings.ReplaceAll(rel, string(filepath.Separator), "__")), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if out, code := d.run(t, "validate"); code != 0 {
		t.Errorf("tofu validate of the examples (files named after their path under examples/): exit %d\n%s", code, out)
	}
}
