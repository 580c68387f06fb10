// Command controlplane runs a real, single-node-less Kubernetes control plane on 127.0.0.1 for the
// project's cluster tests: embedded etcd, kube-apiserver and kube-controller-manager, all from the
// upstream Go modules pinned in ../go.mod.
//
// It is one binary with three roles:
//
//	controlplane run --dir DIR --kubeconfig FILE [--port N] [--log-dir DIR]
//	    supervisor: generates certificates and identities, starts etcd in-process and the two
//	    components below as child processes, bootstraps RBAC, writes the kubeconfig and
//	    DIR/controlplane.json once everything is ready, and stops everything when it receives
//	    SIGTERM/SIGINT or when any component exits.
//	controlplane kube-apiserver [flags]           the upstream kube-apiserver command
//	controlplane kube-controller-manager [flags]  the upstream kube-controller-manager command
//
// The components run as separate processes (re-executing this binary) so that each keeps its own
// process-global state (flags, feature gates, metrics registries) exactly as the upstream binaries do.
package main

import (
	"fmt"
	"os"
	_ "time/tzdata" // as upstream: CronJob time zones

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // as upstream: JSON log format
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // as upstream: client-go metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // as upstream: version metric
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: controlplane run|kube-apiserver|kube-controller-manager [flags]")
		os.Exit(2)
	}
	role, args := os.Args[1], os.Args[2:]
	switch role {
	case "run":
		os.Exit(runSupervisor(args))
	case "kube-apiserver":
		os.Exit(runComponent(apiserver.NewAPIServerCommand(), args))
	case "kube-controller-manager":
		os.Exit(runComponent(controllermanager.NewControllerManagerCommand(), args))
	default:
		fmt.Fprintf(os.Stderr, "controlplane: unknown role %q\n", role)
		os.Exit(2)
	}
}

// runComponent runs an upstream component command with the given arguments, as its own main would.
func runComponent(cmd *cobra.Command, args []string) int {
	cmd.SetArgs(args)
	return cli.Run(cmd)
}
