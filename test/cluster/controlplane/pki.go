package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// pki holds the file paths of everything the components need to trust each other and the tests.
type pki struct {
	CACert, CAKey           string // self-signed cluster CA
	ServingCert, ServingKey string // kube-apiserver serving certificate for 127.0.0.1/localhost
	SAKey, SAPub            string // service-account token signing key pair
	TokenFile               string // static token file (--token-auth-file)
	CAPEM                   []byte
}

// identity is a static-token user of the control plane.
type identity struct {
	User   string
	Token  string
	Groups []string
}

// writePKI creates a fresh CA, a serving certificate signed by it, a service-account key pair and
// the static token file for the given identities, all under dir.
func writePKI(dir string, ids []identity) (*pki, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	p := &pki{
		CACert: filepath.Join(dir, "ca.crt"), CAKey: filepath.Join(dir, "ca.key"),
		ServingCert: filepath.Join(dir, "apiserver.crt"), ServingKey: filepath.Join(dir, "apiserver.key"),
		SAKey: filepath.Join(dir, "sa.key"), SAPub: filepath.Join(dir, "sa.pub"),
		TokenFile: filepath.Join(dir, "tokens.csv"),
	}
	now := time.Now().Add(-time.Hour) // tolerate small clock differences
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "agentcfg-test-ca"},
		NotBefore:             now,
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	p.CAPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	if err := writeCertAndKey(p.CACert, p.CAKey, caDER, caKey); err != nil {
		return nil, err
	}

	servingKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	servingTmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now,
		NotAfter:     now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
			"kubernetes.default.svc.cluster.local"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1"), net.ParseIP(serviceIP)},
	}
	servingDER, err := x509.CreateCertificate(rand.Reader, servingTmpl, caCert, &servingKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	if err := writeCertAndKey(p.ServingCert, p.ServingKey, servingDER, servingKey); err != nil {
		return nil, err
	}

	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	saPubDER, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return nil, err
	}
	if err := writePEM(p.SAKey, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(saKey)); err != nil {
		return nil, err
	}
	if err := writePEM(p.SAPub, "PUBLIC KEY", saPubDER); err != nil {
		return nil, err
	}

	var tokens strings.Builder
	for _, id := range ids {
		// token,user,uid,"group1,group2" (the --token-auth-file format)
		fmt.Fprintf(&tokens, "%s,%s,%s,%q\n", id.Token, id.User, id.User, strings.Join(id.Groups, ","))
	}
	if err := os.WriteFile(p.TokenFile, []byte(tokens.String()), 0o600); err != nil {
		return nil, err
	}
	return p, nil
}

func writeCertAndKey(certPath, keyPath string, der []byte, key crypto.Signer) error {
	if err := writePEM(certPath, "CERTIFICATE", der); err != nil {
		return err
	}
	ecKey, ok := key.(*ecdsa.PrivateKey)
	if !ok {
		return fmt.Errorf("unsupported key type %T", key)
	}
	keyDER, err := x509.MarshalECPrivateKey(ecKey)
	if err != nil {
		return err
	}
	return writePEM(keyPath, "EC PRIVATE KEY", keyDER)
}

func writePEM(path, blockType string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der}), 0o600)
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		panic(err)
	}
	return n.Add(n, big.NewInt(1))
}

// randomToken returns a fresh bearer token (hex, 32 bytes of entropy).
func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
