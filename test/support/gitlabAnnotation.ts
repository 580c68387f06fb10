/**
 * GitLab's environment annotation (docs/gitlab-behaviour.md#managed-object-labels-and-annotation) as the cluster and unit tests expect it for their
 * common fixture, agent 7 "prod" of project 42 `acme/shop` on gitlab.com, rendered with the
 * `default` template: the keys in GitLab's documented order, the environment's fields given.
 */
export function acmeShopEnvironmentAnnotation(environment: { id: number; name: string; slug: string; url?: string }): Record<string, unknown> {
  return {
    environment_id: environment.id,
    environment_name: environment.name,
    environment_slug: environment.slug,
    ...(environment.url === undefined ? {} : { environment_url: environment.url }),
    environment_page_url: `https://gitlab.com/acme/shop/-/environments/${environment.id}`,
    environment_tier: 'development',
    agent_id: 7,
    agent_name: 'prod',
    agent_url: 'https://gitlab.com/acme/shop/-/cluster_agents/prod',
    project_id: 42,
    project_slug: 'shop',
    project_path: 'acme/shop',
    project_url: 'https://gitlab.com/acme/shop',
    template_name: 'default',
  };
}
