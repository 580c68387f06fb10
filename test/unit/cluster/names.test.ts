// Kubernetes name rules (server/src/cluster/kube/names.ts). The good and bad values are the ones
// Kubernetes tests its own rules with: TestIsDNS1123Label and TestIsDNS1123Subdomain in
// k8s.io/apimachinery/pkg/util/validation/validation_test.go (rules in validation.go), and
// IsValidPathSegmentName in k8s.io/apimachinery/pkg/api/validation/path/name.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dnsLabelProblem, dnsSubdomainProblem, pathSegmentProblem } from '../../../server/src/cluster/kube/names';

const GOOD_LABELS = ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a'.repeat(63)];
const BAD_LABELS = [
  '', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2',
  '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'a'.repeat(64),
  // The path-segment rule and what a command line can smuggle in.
  '..', '../kube-system', 'kube-system/x', 'a%2fb',
];

const GOOD_SUBDOMAINS = [
  'a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2',
  'a.a', 'ab.a', 'abc.a', 'a1.a', 'a-1.a', 'a--1--2--b.a', 'a.1', 'ab.1', 'abc.1', 'a1.1', 'a-1.1', 'a--1--2--b.1',
  '0.a', '01.a', '012.a', '1a.a', '1-a.a', '0.1', '01.1', '012.1', '1a.1', '1-a.1', '1--a--b--2.1',
  'a.b.c.d.e', 'aa.bb.cc.dd.ee', '1.2.3.4.5', '11.22.33.44.55', 'a'.repeat(253),
  // Kubernetes limits only the whole subdomain, not each dot-separated part, to its length.
  `${'a'.repeat(64)}.b`,
];
const BAD_SUBDOMAINS = [
  '', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2',
  '.', 'a.', '.a', 'a..b', '1.', '.1', '1..2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2',
  'A.a', 'aB.a', 'ab.A', 'A1.a', 'a1.A', 'A.1', 'aB.1', 'A1.1', '1A.1', '0.A', '01.A', '012.A', '1A.a', '1a.A',
  'A.B.C.D.E', 'AA.BB.CC.DD.EE', 'a.B.c.d.e', 'aa.bB.cc.dd.ee',
  'a@b', 'a,b', 'a_b', 'a;b', 'a:b', 'a%b', 'a?b', 'a$b', 'a'.repeat(254),
  '..', '../kube-system', 'a/b',
];

test('dnsLabelProblem: IsDNS1123Label good values pass, bad values get a reason', () => {
  for (const name of GOOD_LABELS) assert.equal(dnsLabelProblem(name), undefined, JSON.stringify(name));
  for (const name of BAD_LABELS) assert.equal(typeof dnsLabelProblem(name), 'string', JSON.stringify(name));
});

test('dnsSubdomainProblem: IsDNS1123Subdomain good values pass, bad values get a reason', () => {
  for (const name of GOOD_SUBDOMAINS) assert.equal(dnsSubdomainProblem(name), undefined, JSON.stringify(name));
  for (const name of BAD_SUBDOMAINS) assert.equal(typeof dnsSubdomainProblem(name), 'string', JSON.stringify(name));
});

test('pathSegmentProblem: IsValidPathSegmentName (NameMayNotBe ".", ".."; NameMayNotContain "/", "%")', () => {
  const cases: Array<[string, string | undefined]> = [
    ['.', "may not be '.' or '..'"],
    ['..', "may not be '.' or '..'"],
    ['../kube-system', "may not contain '/'"],
    ['a%b', "may not contain '%'"],
    ['a/%b', "may not contain '/' and may not contain '%'"],
    ['...', undefined],
    ['a.b', undefined],
    ['Anything_else', undefined],
  ];
  for (const [name, reason] of cases) assert.equal(pathSegmentProblem(name), reason, JSON.stringify(name));
});

test('the reason says what is wrong, the path-segment rule first', () => {
  const cases: Array<[(name: string) => string | undefined, string, string]> = [
    [dnsLabelProblem, '', 'must not be empty'],
    [dnsLabelProblem, '..', "may not be '.' or '..'"],
    [dnsLabelProblem, '../kube-system', "may not contain '/'"],
    [dnsLabelProblem, 'a'.repeat(64), 'must be no more than 63 characters (is 64)'],
    [dnsLabelProblem, 'Review', "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"],
    [dnsSubdomainProblem, 'a'.repeat(254), 'must be no more than 253 characters (is 254)'],
    [dnsSubdomainProblem, 'a..b', "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"],
  ];
  for (const [check, name, reason] of cases) assert.equal(check(name), reason, `${check.name}(${JSON.stringify(name)})`);
});
