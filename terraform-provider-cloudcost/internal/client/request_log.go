package client

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Every attempt the client makes is one DEBUG line through tflog (TF_LOG=DEBUG shows them): method, path,
// query, status, request id, attempt, whether it was a retry, whether the answer was a replayed create, and
// the page of a listing. Headers and bodies are never logged: they carry the token, the client secret,
// webhook URLs and the signing secret.

type pageKey struct{}

// withPage marks the calls made with ctx as page n of a listing.
func withPage(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, pageKey{}, n)
}

func pageOf(ctx context.Context) int {
	n, _ := ctx.Value(pageKey{}).(int)
	return n
}

func logAttempt(ctx context.Context, req request, res *response, attempt int, err error) {
	fields := map[string]any{
		"method":  req.method,
		"path":    req.operation[len(req.method)+1:],
		"attempt": attempt,
		"retry":   attempt > 1,
	}
	if req.query != "" {
		fields["query"] = req.query
	}
	if req.page > 0 {
		fields["page"] = req.page
	}
	if err != nil {
		fields["status"] = 0
		fields["error"] = err.Error()
		tflog.Debug(ctx, "cloudcost API request failed without a response", fields)
		return
	}
	fields["status"] = res.status
	fields["request_id"] = res.header.Get("X-Request-Id")
	fields["replay"] = res.header.Get("Idempotent-Replayed") == "true"
	tflog.Debug(ctx, "cloudcost API request", fields)
}
