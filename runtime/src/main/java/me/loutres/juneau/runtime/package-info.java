/**
 * A small controller runtime shared by the controller and the node agent (and its watched cache by the webhook).
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@link me.loutres.juneau.runtime.Reconciler Reconciler&lt;K&gt;}: {@code Result reconcile(K key, Term term)}
 *       brings the world in line for one key; {@code failed(key, e)} drops state a failure made stale.</li>
 *   <li>{@link me.loutres.juneau.runtime.Result Result}: {@code DONE}, {@code after(delay)} (look again later),
 *       {@code retry(cause, base, cap)} (a failure the reconciler already reported, retried with backoff on its
 *       own scale, e.g. 1 s … 5 min for a write the API server refused).</li>
 *   <li>{@link me.loutres.juneau.runtime.WorkQueue WorkQueue&lt;K&gt;}: de-duplicating, client-go style: a key waits
 *       at most once and is never reconciled by two workers at once; {@code addAfter} for delays.</li>
 *   <li>{@link me.loutres.juneau.runtime.Backoff Backoff&lt;K&gt;}: per-key exponential delays, forgotten on
 *       success.</li>
 *   <li>{@link me.loutres.juneau.runtime.Leadership Leadership}: a {@code coordination.k8s.io} Lease campaign that
 *       goes back to standing by after a loss; each won period is a {@link me.loutres.juneau.runtime.Term Term},
 *       which writers check ({@code term.ensureActive()}) so a deposed leader stops writing mid-reconcile.</li>
 *   <li>{@link me.loutres.juneau.runtime.ControllerRuntime ControllerRuntime}: the workers.</li>
 *   <li>{@code watch}: the watched cache the controller, the agent and the webhook read the cluster from
 *       ({@code WatchedCache}, one informer per kind, started and stopped together), the one report of an
 *       unreachable API server ({@code ApiConnection}) and {@code VersionMemo}, which reads each version of an object
 *       once (docs/design.md, "One way to watch").</li>
 *   <li>{@code ops}: the shell both servers share: {@code OpsServer} ({@code /healthz}, {@code /readyz},
 *       {@code /metrics}), {@code Logging} (the default levels: one line per state change, no fabric8 stack trace
 *       per retry), {@code ClientConfig} ({@code --kubeconfig} or in-cluster) and {@code UntilSignal}.</li>
 * </ul>
 *
 * <h2>Use</h2>
 * <pre>{@code
 * ControllerRuntime rt = new ControllerRuntime("juneau", new MicrometerRuntimeMetrics(registry));
 * WorkQueue<ServiceKey> services = rt.register(Registration.of("service", "services", serviceReconciler)
 *         .withWorkers(4).withBackoff(Duration.ofMillis(20), Duration.ofSeconds(60)));
 * rt.onTermStart(term -> { restoreAllocations(term); queueEverything(); return true; });
 * rt.onTermEnd(term -> forgetTermState(term));
 * informerHandlers.forEach(h -> h.enqueueInto(services));         // handlers only add keys
 * rt.startLeaderElection(client, "juneau-system", "juneau-controller", podName, Leadership.Timing.defaults());
 * //  or, for a per-node agent: rt.startWithoutLeaderElection();
 * ...
 * rt.leading();  rt.failed();  rt.failure();                          // for /readyz and /healthz
 * rt.close();                                                         // releases the Lease
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Workers run only during an active term; when the term ends they stop, every queue is cleared and
 *       {@code onTermEnd} runs; the next term starts with {@code onTermStart} again.</li>
 *   <li>A thrown {@code KubernetesClientException} 409/404 is retried quietly (debug log), another API error with a
 *       one-line warning, anything else with a warning and its stack; all with the registration's backoff.
 *       {@code LostLeadershipException} drops the key.</li>
 *   <li>Metrics ({@link me.loutres.juneau.runtime.MicrometerRuntimeMetrics}): {@code juneau_reconcile_total{kind,
 *       outcome}}, {@code juneau_reconcile_errors_total{kind,cause}}, {@code juneau_reconcile_duration{kind}},
 *       {@code juneau_workqueue_depth{queue}}, {@code juneau_workqueue_unfinished{queue}} (0 = nothing left to
 *       do, including delayed retries).</li>
 *   <li>A term-start hook or a worker dying of an unexpected throwable fails the runtime for good: the term ends,
 *       the Lease is released so a standby takes over, and {@code failed()} turns true for the probes.</li>
 * </ul>
 */
package me.loutres.juneau.runtime;
