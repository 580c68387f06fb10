package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/component-base/version"
)

const (
	serviceCIDR = "10.0.0.0/24"
	serviceIP   = "10.0.0.1" // first address of serviceCIDR: the `kubernetes` Service

	clusterName         = "agentcfg-test"
	adminUser           = "agentcfg-admin"
	restrictedUser      = "agentcfg-restricted"
	controllerUser      = "system:kube-controller-manager"
	adminContext        = "agentcfg-admin"
	restrictedContext   = "agentcfg-restricted"
	restrictedNamespace = "agentcfg-restricted"
	restrictedBinding   = "agentcfg-restricted-admin"

	etcdStartTimeout  = 60 * time.Second
	readyTimeout      = 3 * time.Minute
	componentStopWait = 15 * time.Second
)

// controllers the controller manager runs. No scheduler or kubelet exists, so workload controllers
// (deployment, replicaset, …) stay off: tests play those controllers by patching status themselves.
var controllers = []string{
	"namespace-controller",                     // finalizes deleted namespaces
	"garbage-collector-controller",             // ownerReference cascades
	"serviceaccount-controller",                // `default` ServiceAccount in each namespace
	"serviceaccount-token-controller",          // legacy token Secrets
	"root-ca-certificate-publisher-controller", // kube-root-ca.crt ConfigMap in each namespace
	"clusterrole-aggregation-controller",       // fills admin/edit/view from aggregate-to-* roles
}

// readyState is written to DIR/controlplane.json once the control plane serves and its
// controllers run; scripts/cluster.mjs reads it.
type readyState struct {
	PID                  int      `json:"pid"`
	APIServerPID         int      `json:"apiserverPid"`
	ControllerManagerPID int      `json:"controllerManagerPid"`
	Server               string   `json:"server"`
	Port                 int      `json:"port"`
	EtcdURL              string   `json:"etcdUrl"`
	Kubeconfig           string   `json:"kubeconfig"`
	AdminContext         string   `json:"adminContext"`
	RestrictedContext    string   `json:"restrictedContext"`
	RestrictedNamespace  string   `json:"restrictedNamespace"`
	RestrictedUser       string   `json:"restrictedUser"`
	KubernetesVersion    string   `json:"kubernetesVersion"`
	Controllers          []string `json:"controllers"`
	ReadyAt              string   `json:"readyAt"`
}

// component is one child process (kube-apiserver or kube-controller-manager).
type component struct {
	name string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, valid after done
}

func runSupervisor(args []string) int {
	log.SetPrefix("[controlplane] ")
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	dir := fs.String("dir", "", "data directory (etcd data, certificates); created, and emptied first")
	kubeconfigPath := fs.String("kubeconfig", "", "where to write the kubeconfig (default DIR/kubeconfig)")
	port := fs.Int("port", 0, "kube-apiserver port on 127.0.0.1 (0: pick a free one)")
	logDir := fs.String("log-dir", "", "where the components write their logs (default DIR)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" {
		log.Print("--dir is required")
		return 2
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Print(err)
		return 1
	}
	*dir = abs
	if *kubeconfigPath == "" {
		*kubeconfigPath = filepath.Join(*dir, "kubeconfig")
	}
	if *logDir == "" {
		*logDir = *dir
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	s := &supervisor{dir: *dir, logDir: *logDir, kubeconfig: *kubeconfigPath, port: *port, exited: make(chan *component, 2)}
	err = s.start(ctx)
	if err == nil {
		log.Printf("ready: https://127.0.0.1:%d (kubeconfig %s)", s.port, s.kubeconfig)
		err = s.supervise(ctx)
	}
	s.shutdown()
	if err != nil && ctx.Err() == nil {
		log.Printf("error: %v", err)
		return 1
	}
	return 0
}

// maxAPIServerRestarts bounds how often a dead kube-apiserver is started again.
const maxAPIServerRestarts = 20

// supervise waits for a stop request. A kube-apiserver that dies (the fault-injection tests kill it
// with SIGKILL mid-operation) is started again on the same port over the same etcd data, as a
// kubelet restarts a static pod; any other component's death ends the control plane.
func (s *supervisor) supervise(ctx context.Context) error {
	for restarts := 0; ; {
		select {
		case <-ctx.Done():
			log.Print("stop requested")
			return nil
		case c := <-s.exited:
			if c.name != "kube-apiserver" || restarts >= maxAPIServerRestarts {
				return fmt.Errorf("%s exited unexpectedly: %v", c.name, c.err)
			}
			restarts++
			log.Printf("kube-apiserver exited (%v); starting it again (restart %d)", c.err, restarts)
			s.forget(c)
			apiserver, err := s.startComponent("kube-apiserver", s.apiserverFlags())
			if err == nil {
				err = s.waitReadyz(ctx, apiserver)
			}
			if err != nil {
				return fmt.Errorf("restarting kube-apiserver: %w", err)
			}
			s.state.APIServerPID = apiserver.cmd.Process.Pid
			if err := writeJSONAtomic(filepath.Join(s.dir, "controlplane.json"), s.state); err != nil {
				return err
			}
			log.Printf("kube-apiserver is ready again (pid %d)", apiserver.cmd.Process.Pid)
		}
	}
}

// forget drops an exited component from the ones shutdown stops.
func (s *supervisor) forget(gone *component) {
	kept := s.components[:0]
	for _, c := range s.components {
		if c != gone {
			kept = append(kept, c)
		}
	}
	s.components = kept
}

type supervisor struct {
	dir, logDir, kubeconfig string
	port                    int
	etcd                    *embed.Etcd
	etcdURL                 string
	pki                     *pki
	admin, restricted, kcm  identity
	components              []*component
	exited                  chan *component
	state                   readyState
}

func (s *supervisor) start(ctx context.Context) error {
	for _, sub := range []string{"etcd", "pki"} {
		if err := os.RemoveAll(filepath.Join(s.dir, sub)); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(s.logDir, 0o755); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(s.dir, "controlplane.json"))

	s.admin = identity{User: adminUser, Token: randomToken(), Groups: []string{"system:masters"}}
	s.restricted = identity{User: restrictedUser, Token: randomToken(), Groups: []string{"agentcfg:restricted"}}
	// Without --use-service-account-credentials every controller acts as this user; the namespace
	// and garbage collectors must be able to delete any kind, custom resources included.
	s.kcm = identity{User: controllerUser, Token: randomToken(), Groups: []string{"system:masters"}}
	var err error
	if s.pki, err = writePKI(filepath.Join(s.dir, "pki"), []identity{s.admin, s.restricted, s.kcm}); err != nil {
		return fmt.Errorf("certificates: %w", err)
	}

	// Pick every port at once, holding each until all are chosen, so no two are the same.
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	if s.port == 0 {
		s.port = ports[2]
	}
	if err := s.startEtcd(ports[0], ports[1]); err != nil {
		return fmt.Errorf("etcd: %w", err)
	}

	apiserver, err := s.startComponent("kube-apiserver", s.apiserverFlags())
	if err != nil {
		return err
	}
	admin, err := s.client(s.admin.Token)
	if err != nil {
		return err
	}
	if err := s.waitReadyz(ctx, apiserver); err != nil {
		return err
	}
	log.Print("kube-apiserver is ready")
	if err := s.bootstrapRBAC(ctx, admin); err != nil {
		return fmt.Errorf("bootstrap RBAC: %w", err)
	}

	kcmKubeconfig := filepath.Join(s.dir, "pki", "controller-manager.kubeconfig")
	if err := s.writeKubeconfig(kcmKubeconfig, map[string]identity{"controller-manager": s.kcm}, "controller-manager", nil); err != nil {
		return err
	}
	kcm, err := s.startComponent("kube-controller-manager", []string{
		"--kubeconfig=" + kcmKubeconfig,
		"--authentication-kubeconfig=" + kcmKubeconfig,
		"--authorization-kubeconfig=" + kcmKubeconfig,
		"--secure-port=0", // no health endpoint needed: readiness is judged by the controllers' effects
		"--leader-elect=false",
		"--controllers=" + strings.Join(controllers, ","),
		"--service-account-private-key-file=" + s.pki.SAKey,
		"--root-ca-file=" + s.pki.CACert,
		"--use-service-account-credentials=false",
		"--cluster-name=" + clusterName,
	})
	if err != nil {
		return err
	}
	if err := s.waitControllers(ctx, admin); err != nil {
		return err
	}
	log.Print("kube-controller-manager is running its controllers")

	if err := s.writeKubeconfig(s.kubeconfig, map[string]identity{adminContext: s.admin, restrictedContext: s.restricted},
		adminContext, map[string]string{restrictedContext: restrictedNamespace}); err != nil {
		return err
	}
	s.state = readyState{
		PID: os.Getpid(), APIServerPID: apiserver.cmd.Process.Pid, ControllerManagerPID: kcm.cmd.Process.Pid,
		Server: s.server(), Port: s.port, EtcdURL: s.etcdURL, Kubeconfig: s.kubeconfig,
		AdminContext: adminContext, RestrictedContext: restrictedContext,
		RestrictedNamespace: restrictedNamespace, RestrictedUser: restrictedUser,
		KubernetesVersion: version.Get().GitVersion, Controllers: controllers,
		ReadyAt: time.Now().UTC().Format(time.RFC3339),
	}
	return writeJSONAtomic(filepath.Join(s.dir, "controlplane.json"), s.state)
}

func (s *supervisor) server() string { return fmt.Sprintf("https://127.0.0.1:%d", s.port) }

func (s *supervisor) apiserverFlags() []string {
	return []string{
		"--etcd-servers=" + s.etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", s.port),
		"--cert-dir=" + filepath.Join(s.dir, "pki"),
		"--tls-cert-file=" + s.pki.ServingCert,
		"--tls-private-key-file=" + s.pki.ServingKey,
		"--client-ca-file=" + s.pki.CACert,
		"--token-auth-file=" + s.pki.TokenFile,
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + s.pki.SAPub,
		"--service-account-signing-key-file=" + s.pki.SAKey,
		"--service-cluster-ip-range=" + serviceCIDR,
		// The `kubernetes` Service would get 127.0.0.1 endpoints, which validation rejects; nothing
		// runs in pods here, so it needs none.
		"--endpoint-reconciler-type=none",
		"--profiling=false",
	}
}

func (s *supervisor) startEtcd(clientPort, peerPort int) error {
	clientURL := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", clientPort)}
	peerURL := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", peerPort)}
	cfg := embed.NewConfig()
	cfg.Name = "agentcfg-test"
	cfg.Dir = filepath.Join(s.dir, "etcd")
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{clientURL}, []url.URL{clientURL}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peerURL}, []url.URL{peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.LogLevel = "error"   // its warn level logs every request
	cfg.UnsafeNoFsync = true // test data: durability is not worth the fsync latency
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return err
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return err
	case <-time.After(etcdStartTimeout):
		e.Close()
		return errors.New("not ready within " + etcdStartTimeout.String())
	}
	s.etcd, s.etcdURL = e, clientURL.String()
	log.Printf("etcd is ready at %s", s.etcdURL)
	return nil
}

func (s *supervisor) startComponent(name string, args []string) (*component, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	out, err := os.Create(filepath.Join(s.logDir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, append([]string{name}, args...)...)
	cmd.Stdout, cmd.Stderr = out, out
	// Dies with the supervisor even if the supervisor is SIGKILLed; it shares the supervisor's
	// process group, so `cluster.mjs down` reaches it too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &component{name: name, cmd: cmd, done: make(chan struct{})}
	s.components = append(s.components, c)
	log.Printf("%s started (pid %d, log %s)", name, cmd.Process.Pid, out.Name())
	go func() {
		c.err = cmd.Wait()
		out.Close()
		close(c.done)
		s.exited <- c
	}()
	return c, nil
}

// shutdown stops the components in reverse start order, then etcd.
func (s *supervisor) shutdown() {
	for i := len(s.components) - 1; i >= 0; i-- {
		c := s.components[i]
		select {
		case <-c.done:
			continue
		default:
		}
		_ = c.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-c.done:
		case <-time.After(componentStopWait):
			log.Printf("%s did not stop within %s; killing it", c.name, componentStopWait)
			_ = c.cmd.Process.Kill()
			<-c.done
		}
		log.Printf("%s stopped", c.name)
	}
	if s.etcd != nil {
		s.etcd.Close()
		log.Print("etcd stopped")
	}
}

func (s *supervisor) client(token string) (*kubernetes.Clientset, error) {
	return kubernetes.NewForConfig(&rest.Config{
		Host:            s.server(),
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{CAData: s.pki.CAPEM},
		Timeout:         10 * time.Second,
	})
}

// waitReadyz polls /readyz until it answers ok, the apiserver exits, or the deadline passes.
func (s *supervisor) waitReadyz(ctx context.Context, apiserver *component) error {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.pki.CAPEM)
	httpClient := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
	}
	last := "no answer yet"
	err := poll(ctx, readyTimeout, apiserver, func() (bool, error) {
		resp, err := httpClient.Get(s.server() + "/readyz")
		if err != nil {
			last = err.Error()
			return false, nil
		}
		defer resp.Body.Close()
		last = resp.Status
		return resp.StatusCode == http.StatusOK, nil
	})
	if err != nil {
		return fmt.Errorf("kube-apiserver /readyz (last: %s): %w", last, err)
	}
	return nil
}

// bootstrapRBAC creates the restricted identity's namespace and binds the built-in `admin`
// ClusterRole to it there only: it may manage objects in that namespace and nothing else, and
// cannot create or delete namespaces (the permissions the agent has in shared-namespace mode).
func (s *supervisor) bootstrapRBAC(ctx context.Context, admin *kubernetes.Clientset) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: restrictedNamespace,
		Labels: map[string]string{"agentcfg.test/role": "restricted-namespace"}}}
	if _, err := admin.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: restrictedBinding, Namespace: restrictedNamespace},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "admin"},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: restrictedUser}},
	}
	if _, err := admin.RbacV1().RoleBindings(restrictedNamespace).Create(ctx, rb, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

// waitControllers waits for visible effects of the controllers: the `default` ServiceAccount in the
// restricted namespace (serviceaccount controller) and a non-empty aggregated `admin` ClusterRole
// (clusterrole-aggregation controller), which the restricted identity's permissions depend on.
func (s *supervisor) waitControllers(ctx context.Context, admin *kubernetes.Clientset) error {
	var kcm *component
	for _, c := range s.components {
		if c.name == "kube-controller-manager" {
			kcm = c
		}
	}
	last := "no answer yet"
	err := poll(ctx, readyTimeout, kcm, func() (bool, error) {
		if _, err := admin.CoreV1().ServiceAccounts(restrictedNamespace).Get(ctx, "default", metav1.GetOptions{}); err != nil {
			last = "ServiceAccount default: " + err.Error()
			return false, nil
		}
		role, err := admin.RbacV1().ClusterRoles().Get(ctx, "admin", metav1.GetOptions{})
		if err != nil || len(role.Rules) == 0 {
			last = "ClusterRole admin not aggregated yet"
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("kube-controller-manager (last: %s): %w", last, err)
	}
	return nil
}

// poll calls check every 200ms until it returns true, the watched component exits, the context
// ends or the timeout passes.
func poll(ctx context.Context, timeout time.Duration, watched *component, check func() (bool, error)) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, err := check()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-watched.done:
			return fmt.Errorf("%s exited: %v", watched.name, watched.err)
		case <-deadline.C:
			return fmt.Errorf("not ready within %s", timeout)
		case <-tick.C:
		}
	}
}

// writeKubeconfig writes a kubeconfig with one context per identity (named after the map key),
// all pointing at this control plane.
func (s *supervisor) writeKubeconfig(path string, ids map[string]identity, current string, namespaces map[string]string) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[clusterName] = &clientcmdapi.Cluster{Server: s.server(), CertificateAuthorityData: s.pki.CAPEM}
	for name, id := range ids {
		cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: id.Token}
		ns := namespaces[name]
		if ns == "" {
			ns = metav1.NamespaceDefault
		}
		cfg.Contexts[name] = &clientcmdapi.Context{Cluster: clusterName, AuthInfo: name, Namespace: ns}
	}
	cfg.CurrentContext = current
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return clientcmd.WriteToFile(*cfg, path)
}

func writeJSONAtomic(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// freePorts asks the kernel for n distinct free TCP ports on 127.0.0.1.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
