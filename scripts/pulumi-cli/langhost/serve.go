// Package langhost is what our language hosts (language-nodejs, language-python, language-go) share: serving
// the LanguageRuntime protocol (sdk/v3/proto/go, language.proto) to the engine, the answers that are the same
// for every language, code generation on pkg/v3's codegen packages, and starting a program process.
//
// The official hosts are Go modules of their own which the module proxy here refuses (scripts/pulumi-cli/README.md);
// these are ours, written against the published protocol and the SDK's helpers.
package langhost

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// Serve parses the command line the engine starts a language host with (`[--flags] [engine address]`),
// serves HOST on a free port, prints the port as the first line of stdout (the engine reads it) and returns
// when the engine goes away. NAME is the executable's name, for messages; VERSION what `-version` prints.
func Serve(name, version string, newHost func(base *Base) pulumirpc.LanguageRuntimeServer) {
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.String("tracing", "", "accepted for compatibility; tracing is not supported")
	flag.String("runtime", "", "accepted for compatibility")
	flag.String("root", "", "accepted for compatibility")
	flag.Parse()
	if *showVersion {
		fmt.Println(version)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	base := &Base{Version: version, Stopping: ctx}
	if args := flag.Args(); len(args) > 0 {
		base.EngineAddress = args[0]
	}
	cancel := make(chan bool)
	go func() { <-ctx.Done(); close(cancel) }()
	if base.EngineAddress != "" {
		// Exit when the engine goes away, as every plugin must (rpcutil.Healthcheck polls it).
		if err := rpcutil.Healthcheck(ctx, base.EngineAddress, 5*time.Minute, stop); err != nil {
			fail(name, fmt.Errorf("could not start the health check: %w", err))
		}
	}
	host := newHost(base)
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fail(name, fmt.Errorf("could not start the language host: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fail(name, err)
	}
}

func fail(name string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(1)
}
