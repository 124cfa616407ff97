/**
 * Generated from /openapi.json by scripts/openapi-types.js (openapi-typescript): do not edit.
 * Regenerate: OPENAPI_TYPES_WRITE=1 npx jest --runInBand test/openapi/openapi-types.e2e.spec.ts
 */
export type paths = {
  '/admin/v1/accounts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List accounts */
    get: operations['Admin_listAccounts'];
    put?: never;
    /** Create an account */
    post: operations['Admin_createAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/accounts/{accountId}/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Issue an API key for an account (the secret is shown once, in `key`) */
    post: operations['Admin_createKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/accounts/{accountId}/connectors': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List an account's connectors (their token or webhook secret is never shown again) */
    get: operations['Admin_listConnectors'];
    put?: never;
    /** Create a messaging or SMS connector for an agent */
    post: operations['Admin_createConnector'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/accounts/{accountId}/limits': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** Set the account's limit of concurrent calls (outbound and inbound) */
    put: operations['CallLimits_set'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/agents/{agentId}/phone-numbers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List an agent's phone numbers in every environment, with DNI reservations */
    get: operations['Admin_listNumbers'];
    put?: never;
    /** Provision a phone number for an agent and environment */
    post: operations['Admin_provisionNumber'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/agents/{agentId}/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** Change an agent's platform settings (chunked streaming) */
    put: operations['Admin_changeSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/alerts/evaluate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Run an alert evaluation round now */
    post: operations['AlertsAdmin_evaluate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/carrier/inbound-calls': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Simulate an inbound call on the embedded carrier
     * @description The agent of the number greets, each utterance is a user turn, then the caller hangs up (unless `hang_up: false`). A call beyond the account limit, or to an environment with no deployment, is refused: 201 with `status: "failed"` and the `reason`.
     */
    post: operations['InboundCalls_receive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/carrier/inbound-calls/{callSid}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An inbound call: in progress, ended or failed */
    get: operations['InboundCalls_status'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/carrier/inbound-calls/{callSid}/hang-up': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The caller hangs up a call left open */
    post: operations['InboundCalls_hangUp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/clock/advance': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Move the test clock (only with PARLEY_TEST_CLOCK=1) and run the timers that fell due */
    post: operations['Clock_advance'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/dead-letters': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The events read models and process managers, and the timers, set aside */
    get: operations['ReadModelsAdmin_listDeadLetters'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/embedding-endpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The embeddings endpoints */
    get: operations['EmbeddingEndpoints_list'];
    put?: never;
    /** Add an embeddings endpoint hybrid retrieval may name (its API key is stored sealed and never shown) */
    post: operations['EmbeddingEndpoints_add'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/embedding-endpoints/{endpointName}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete an embeddings endpoint (turns of agents naming it answer lexically) */
    delete: operations['EmbeddingEndpoints_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/llm-endpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The model endpoints */
    get: operations['LlmEndpoints_list'];
    put?: never;
    /** Add a model endpoint agents may name (its API key is stored sealed and never shown) */
    post: operations['LlmEndpoints_add'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/llm-endpoints/{endpointName}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete a model endpoint (turns of agents naming it fall back to their embedded answer) */
    delete: operations['LlmEndpoints_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/read-models': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read models: what each serves and its lag, every generation (a building one shows a rebuild), the rebuilds asked for */
    get: operations['ReadModelsAdmin_status'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/read-models/{name}/rebuild': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Rebuild a read model from the log beside the live one, then switch to it (runs in the background) */
    post: operations['ReadModelsAdmin_rebuild'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/sms/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** What the embedded carrier delivered (the latest 1000, oldest first) */
    get: operations['SmsAdmin_messages'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/access-token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A web chat access token for a site (X-Token: the connector's token, X-Host: the site) */
    post: operations['MessagingHttp_accessToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/sessions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Open a web chat session (then connect to /ws?session_id=&access_token=) */
    post: operations['MessagingHttp_createSession'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/chat/demo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The demo web chat page (?connector=<connector token>) */
    get: operations['ChatDemo_page'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/docs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The browsable reference (swagger-ui) */
    get: operations['OpenApi_page'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/docs/{file}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A file of the browsable reference (swagger-ui's script, style, icon) */
    get: operations['OpenApi_asset'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The process is up */
    get: operations['Health_healthz'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Prometheus metrics (operator token unless METRICS_PUBLIC=1) */
    get: operations['Metrics_scrape'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This OpenAPI 3.1 document */
    get: operations['OpenApi_document'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The store answers and every read model serves within READY_MAX_LAG_EVENTS of the log */
    get: operations['Health_readyz'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/{accountId}/{projectId}/analytics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A project's figures in hour or day buckets, with its top topics and unanswered inputs
     * @description Buckets start on hour or UTC-day marks, the first at or before `start_time`; empty ones are present with zeros and `null` percentiles. A conversation counts in the bucket it started in. `contained`: ended without handoff after at least one user turn; `abandoned`: the user left before the first answer. `unanswered` (user inputs that cited no topic, normalised, most frequent first, at most 50) is empty unless the project's data access shows transcripts. Test conversations are not counted.
     */
    get: operations['Analytics_series'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/{accountId}/{projectId}/chat/close': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** End a chat */
    put: operations['ChatApi_close'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/{accountId}/{projectId}/chat/create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Start a chat: the greeting, or the answer to `message` */
    post: operations['ChatApi_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/{accountId}/{projectId}/chat/respond': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a message in a chat */
    post: operations['ChatApi_respond'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/{accountId}/{projectId}/conversations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A project's conversations, newest first
     * @description v1 and v2 page with `offset`; v3 adds cursors, search and sampling. A key without the `conversations` permission gets the basic fields only (its data-access settings say which).
     */
    get: operations['ConversationsApi_list_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/{accountId}/{projectId}/conversations/{conversationId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One conversation */
    get: operations['ConversationsApi_one_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/{accountId}/{projectId}/conversations/concurrency': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Concurrent conversations per 5 minutes
     * @description One interval per 5 minutes in ascending time (0 where nothing ran); with `slice_by`, one interval per time and slice value that had a conversation, with that slice's fields.
     */
    get: operations['Concurrency_series'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/{accountId}/{projectId}/handoff_state': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The state the agent stored when it handed off (`shared_id` wins over `id`) */
    get: operations['Handoff_state'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/accounts/{accountId}/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account's agents this key can reach */
    get: operations['AccountAgents_list'];
    put?: never;
    /** Create an agent (with its `main` branch) */
    post: operations['AccountAgents_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/accounts/{accountId}/agents/{agentId}/data-access': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An agent's data-access settings (what keys without `conversations` see) */
    get: operations['DataAccess_get'];
    /** Replace an agent's data-access settings */
    put: operations['DataAccess_put'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/accounts/{accountId}/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the account's keys (secrets masked) */
    get: operations['ApiKeys_list'];
    put?: never;
    /** Create a key (the secret is shown once, in `key`) */
    post: operations['ApiKeys_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/accounts/{accountId}/api-keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One key (secret masked) */
    get: operations['ApiKeys_get'];
    put?: never;
    post?: never;
    /** Delete a key */
    delete: operations['ApiKeys_delete'];
    options?: never;
    head?: never;
    /** Rename a key (other fields answer 422) */
    patch: operations['ApiKeys_patch'];
    trace?: never;
  };
  '/v1/accounts/{accountId}/limits': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account's limit of concurrent calls, and the calls holding a line now */
    get: operations['CallLimits_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One agent */
    get: operations['Agent_get'];
    put?: never;
    post?: never;
    /** Delete an agent (its history stays in the log) */
    delete: operations['Agent_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The agent's branches, `main` included */
    get: operations['Branches_list'];
    put?: never;
    /** Cut a branch from main */
    post: operations['Branches_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete a branch */
    delete: operations['Branches_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/behavior': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A branch's behavior text */
    get: operations['Branches_behavior'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Replace a branch's behavior text */
    patch: operations['Branches_editBehavior'];
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/example-queries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add a conversation turn's words to a topic's example queries on a branch
     * @description The learning loop: "this should have been topic X". The words come from a user turn (`conversationId` and `turnIndex`, read server-side: the key also needs `conversations` and the project's data access must show transcripts, 403 otherwise) or are given as `query`. They go to `topicId` of the branch (appended through the same command as a topic edit, so they are reviewed, merged and conflicted like one; words the topic already has, ignoring case, accents, punctuation and spacing, change nothing: 200 with `added: false`), or to a `newTopic` made with them as its first example query (201). Refusals: an unknown conversation (404 `CONVERSATION_NOT_FOUND`), turn (404 `TURN_NOT_FOUND`), branch or topic; a turn without the user's words, such as the greeting (400 `NOT_A_USER_TURN`); words that were erased (422 `TURN_ERASED`) or recorded redacted (422 `TURN_REDACTED`); `main` (422) and merged branches (409), as every topic edit.
     */
    post: operations['ExampleQueries_add'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A branch's knowledge-base topics */
    get: operations['Branches_topics'];
    put?: never;
    /** Add a topic (a name is unique per branch) */
    post: operations['Branches_addTopic'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics/{topicId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a topic */
    delete: operations['Branches_removeTopic'];
    options?: never;
    head?: never;
    /** Change a topic */
    patch: operations['Branches_editTopic'];
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/merge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Merge a branch into main and deploy it to sandbox
     * @description When main changed the same item since the branch was cut: 400 `MERGE_CONFLICT` with `data.conflicts: [{path, ours, theirs, base}]`, unless `conflictResolutions` settles each one.
     */
    post: operations['Branches_merge'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An agent's runtime settings on a branch (`main` included), defaults filled in */
    get: operations['RuntimeSettings_get'];
    /** Change runtime settings on a branch: a named field is set, `null` restores its default */
    put: operations['RuntimeSettings_put'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/tests': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A branch's test cases */
    get: operations['AgentTests_list'];
    put?: never;
    /** Add a test case (a name is unique per branch; not on `main`) */
    post: operations['AgentTests_add'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/tests/{testId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One test case */
    get: operations['AgentTests_get'];
    put?: never;
    post?: never;
    /** Remove a test case */
    delete: operations['AgentTests_remove'];
    options?: never;
    head?: never;
    /** Change a test case */
    patch: operations['AgentTests_edit'];
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/tools': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A branch's tools (header values never shown) */
    get: operations['AgentTools_list'];
    put?: never;
    /** Add a tool (a name is unique per branch; not on `main`); the agent's first tool shows the tool secret once */
    post: operations['AgentTools_add'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/branches/{branchId}/tools/{toolId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One tool */
    get: operations['AgentTools_get'];
    put?: never;
    post?: never;
    /** Remove a tool */
    delete: operations['AgentTools_remove'];
    options?: never;
    head?: never;
    /** Change a tool (`headers` replaces the whole object) */
    patch: operations['AgentTools_edit'];
    trace?: never;
  };
  '/v1/agents/{agentId}/debug-chat': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a debug chat on an environment, or on a branch's draft: the greeting
     * @description `clientEnv` talks to the deployment active in that environment (none: 400 `CHAT_DRAFT_NOT_EXIST`). `branchId` instead talks to the branch's content as it is now, without a merge (draft chat): the conversation runs in environment `draft`, listed by the Conversations API only with `client_env=draft`, and every turn reads the branch again. Both: 400. An unknown branch: 404 `BRANCH_NOT_FOUND`; a merged one: 409 `BRANCH_MERGED`.
     */
    post: operations['DebugChat_start'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/debug-chat/{conversationId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a message (or none, to collect a delayed response)
     * @description Send the `clientEnv` the conversation runs in, or for a draft chat the same `branchId` (another one: 400 `CLIENT_ENV_MISMATCH`; an unknown branch: 404 `BRANCH_NOT_FOUND`; a branch merged since: 409 `BRANCH_MERGED`).
     */
    post: operations['DebugChat_turn'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/deployments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The agent's deployments, newest first */
    get: operations['Deployments_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/deployments/{deploymentId}/content': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The behavior and topics a deployment serves (main at its version), to compare two */
    get: operations['Deployments_served'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/deployments/{deploymentId}/promote': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Promote a deployment to the next (or a named) environment */
    post: operations['Deployments_promote'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/deployments/{deploymentId}/rollback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Make an earlier deployment of its environment active again */
    post: operations['Deployments_rollback'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/deployments/active': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The deployment each environment serves */
    get: operations['Deployments_active'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/rotate-tool-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A new tool secret, shown in full this once; the old one signs nothing from now on */
    post: operations['ToolSecret_rotate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/test-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The agent's test runs, newest first (at most 100) */
    get: operations['TestRuns_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/test-runs/{testRunId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One test run, with each case's turns */
    get: operations['TestRuns_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/tool-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The agent's tool secret, masked (it signs every tool call) */
    get: operations['ToolSecret_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/alert-rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List alert rules */
    get: operations['AlertRules_list'];
    put?: never;
    /** Create an alert rule */
    post: operations['AlertRules_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/alert-rules/{ruleId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One alert rule */
    get: operations['AlertRules_get'];
    put?: never;
    post?: never;
    /** Delete an alert rule */
    delete: operations['AlertRules_delete'];
    options?: never;
    head?: never;
    /** Change an alert rule (only the fields given) */
    patch: operations['AlertRules_patch'];
    trace?: never;
  };
  '/v1/alerts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The alerts firing now */
    get: operations['AlertRules_firing'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-keys/self': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The key making the call */
    get: operations['ApiKeySelf_self'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/conversations/dni-reservation': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reserve a number of the agent's DNI pool for one visitor's attributes
     * @description The key must reach exactly one agent (else 400 `DNI_AGENT_AMBIGUOUS`). A call to the number before `expires_at` starts with the attributes in state under `dni`. No number free: 503 `DNI_POOL_EXHAUSTED` with `Retry-After`.
     */
    post: operations['Dni_reserve'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/external-events/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Deliver the result of asynchronous work into the conversation awaiting it */
    post: operations['ExternalEvents_deliver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/outbound-calling': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Place an outbound call (each call is a conversation, id = call_sid) */
    post: operations['OutboundCalls_place'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/outbound-calling/{callSid}/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A call's status (404 once retention has passed) */
    get: operations['OutboundCalls_status'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/outbound-sms': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Text a user from an agent number (X-TOKEN-ID: the SMS connector id) */
    post: operations['Sms_outbound'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sms/inbound/{connectorId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The carrier's webhook: an inbound text, signed with the connector's webhook secret
     * @description X-Signature: `sha256=<hex HMAC-SHA256(webhookSecret, raw body)>`; a bad signature is 401.
     */
    post: operations['Sms_inbound'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhook-endpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account's webhook endpoints */
    get: operations['WebhookEndpoints_list'];
    put?: never;
    /** Create a webhook endpoint (10 per account; the signing secret is shown once) */
    post: operations['WebhookEndpoints_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhook-endpoints/{endpointId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One webhook endpoint */
    get: operations['WebhookEndpoints_get'];
    put?: never;
    post?: never;
    /** Delete a webhook endpoint */
    delete: operations['WebhookEndpoints_delete'];
    options?: never;
    head?: never;
    /** Change a webhook endpoint */
    patch: operations['WebhookEndpoints_patch'];
    trace?: never;
  };
  '/v1/webhook-endpoints/{endpointId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Recent delivery attempts, newest first */
    get: operations['WebhookEndpoints_deliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhook-endpoints/{endpointId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Replace the signing secret (shown once) */
    post: operations['WebhookEndpoints_rotateSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/{accountId}/{projectId}/conversations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A project's conversations, newest first
     * @description v1 and v2 page with `offset`; v3 adds cursors, search and sampling. A key without the `conversations` permission gets the basic fields only (its data-access settings say which).
     */
    get: operations['ConversationsApi_list_v2'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/{accountId}/{projectId}/conversations/{conversationId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One conversation */
    get: operations['ConversationsApi_one_v2'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/{accountId}/{projectId}/conversations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A project's conversations, newest first
     * @description v1 and v2 page with `offset`; v3 adds cursors, search and sampling. A key without the `conversations` permission gets the basic fields only (its data-access settings say which).
     */
    get: operations['ConversationsApi_list_v3'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/{accountId}/{projectId}/conversations/{conversationId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One conversation */
    get: operations['ConversationsApi_one_v3'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/{accountId}/{projectId}/conversations/{conversationId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A conversation's audit history: its events, oldest first */
    get: operations['ConversationsApi_events'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/{accountId}/{projectId}/conversations/{conversationId}/personal-data': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Erase a conversation's personal data
     * @description Destroys the key its personal fields were sealed under (user inputs, responses, state, metadata, numbers, its recording): from then on they read `[erased]` in every API, export and read model, after a rebuild too, while the log stays whole. `ConversationErased` records who erased it and when. Repeating it changes nothing.
     */
    delete: operations['PersonalData_erase'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/{accountId}/{projectId}/conversations/{conversationId}/recording': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A voice call's recording: WAV, 8 kHz 16-bit PCM, two channels (left the caller, right the agent)
     * @description Made when the agent's `voice.recording` runtime setting was on for the call, kept `VOICE_RECORDING_RETENTION_DAYS` after it. Needs the `conversations` permission and the project's transcript access (`show_transcripts`); without transcript access, or when there is no recording (never made, deleted, another project), the answer is 404.
     */
    get: operations['Recording_recording'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/{accountId}/{projectId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A project's audit trail as NDJSON, one stored event a line
     * @description Newline-delimited JSON (`application/x-ndjson`), not one JSON document: each line is one object of the schema below, the events of the project's conversations in log order, then a closing line `{"end": true, "next_cursor": ...}` (`null`: the log was read to its head). An answer without the closing line was cut off: resume with `cursor` = the last line's `position`. Data access filtering applies as on `/conversations/{conversationId}/events`.
     */
    get: operations['AuditExport_events'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
};
export type webhooks = Record<string, never>;
export type components = {
  schemas: {
    AddEmbeddingEndpointDto: {
      api_key?: string;
      base_url: string;
      model: string;
      name: string;
    };
    AddExampleQueryDto: {
      conversationId?: string;
      newTopic?: components['schemas']['NewTopicDto'];
      query?: string;
      topicId?: string;
      turnIndex?: number;
    };
    AddLlmEndpointDto: {
      api_key?: string;
      base_url: string;
      name: string;
    };
    AdvanceClockDto: {
      seconds: number;
    };
    Agent: {
      accountId: string;
      agentId: string;
      agentName: string;
      branchCount: number;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    AgentSettingsDto: {
      chunked_streaming: boolean;
    };
    AgentTool: {
      description: string;
      headers: {
        [key: string]: '***';
      };
      id: string;
      /** @enum {unknown} */
      method: 'POST';
      name: string;
      parameters: {
        [key: string]: unknown;
      };
      signing_secret?: string;
      timeout_ms: number;
      url: string;
    };
    AlertRule: {
      /** Format: date-time */
      created_at: string;
      /** @enum {unknown} */
      current_state: 'ok' | 'alert' | 'no_data' | 'unknown';
      current_value: number | null;
      enabled: boolean;
      id: string;
      /** Format: date-time */
      last_evaluated_at: string | null;
      /** @enum {unknown} */
      metric:
        'turn_latency_p50' | 'turn_latency_p95' | 'api_errors' | 'function_errors' | 'call_crashes' | 'call_volume';
      name: string;
      /** @enum {unknown} */
      operator: '>' | '>=' | '<' | '<=';
      project_id: string | null;
      /** Format: date-time */
      since: string | null;
      threshold_value: number;
      /** Format: date-time */
      updated_at: string;
      /** @enum {unknown} */
      window_duration: '5m' | '10m' | '60m';
    };
    AnalysisFieldDto: {
      description: string;
      name: string;
      /** @enum {unknown} */
      type: 'string' | 'number' | 'boolean' | 'enum';
      values?: string[];
    };
    AnalysisSettingsDto: {
      fields?: components['schemas']['AnalysisFieldDto'][] | null;
    };
    ApiKey: {
      accountId?: string;
      agents: 'all' | string[];
      /** Format: date-time */
      createdAt?: string;
      /** Format: date-time */
      expiresAt: string;
      id: string;
      /** @description the secret in full when created, masked (`sk_…abcd`) afterwards */
      key: string;
      name: string;
      permissions: (
        | 'conversations'
        | 'handoff'
        | 'external_events'
        | 'agents'
        | 'alerts'
        | 'outbound_calling'
        | 'sms'
        | 'keys'
        | 'desk'
        | 'chat'
        | 'dni'
      )[];
    };
    BehaviorDto: {
      behavior: string;
    };
    Branch: {
      branchId: string;
      branchName: string;
      /** Format: date-time */
      createdAt: string;
      sequenceId: string;
      /** @enum {unknown} */
      status: 'open' | 'merged';
    };
    CloseChatDto: {
      conversation_id: string;
    };
    ConflictResolutionDto: {
      path: string[];
      /** @enum {unknown} */
      strategy: 'ours' | 'theirs' | 'base';
      value?: unknown;
    };
    Conversation: {
      account_id?: string;
      analysis?: {
        /** @enum {unknown} */
        analyser: 'embedded' | 'model';
        fields: {
          [key: string]: string | number | boolean | null;
        };
        /** @enum {unknown} */
        outcome: 'contained' | 'handoff' | 'abandoned' | 'not_connected';
        summary?: string;
        topics: string[];
      } | null;
      channel: string;
      environment?: string;
      from_number?: string | null;
      handoff?: boolean;
      handoff_destination?: string | null;
      handoff_reason?: string | null;
      id: string;
      in_progress: boolean;
      metrics?: {
        [key: string]: unknown;
      };
      num_turns?: number;
      project_id: string;
      /** Format: date-time */
      started_at: string;
      state?: {
        [key: string]: unknown;
      };
      to_number?: string | null;
      total_duration?: number;
      turns?: {
        agent_response: string | null;
        /** Format: date-time */
        agent_response_datetime?: string | null;
        barge_in?: boolean;
        dtmf?: string;
        entities?: {
          [key: string]: unknown;
        };
        intents?: unknown[];
        interrupted?: boolean;
        is_ood?: boolean;
        is_silence?: boolean;
        latency?: {
          stages?: {
            [key: string]: number;
          };
          total_s: number;
        };
        user_input?: string | null;
        /** Format: date-time */
        user_input_datetime?: string | null;
      }[];
      variant_id?: string | null;
      variant_name?: string | null;
    };
    CreateAccountDto: {
      name: string;
      /** @enum {unknown} */
      region: 'us' | 'uk' | 'eu' | 'studio';
    };
    CreateAgentDto: {
      name: string;
      responseSettings: components['schemas']['ResponseSettingsDto'];
    };
    CreateAlertRuleDto: {
      enabled?: boolean;
      /** @enum {unknown} */
      metric:
        'turn_latency_p50' | 'turn_latency_p95' | 'api_errors' | 'function_errors' | 'call_crashes' | 'call_volume';
      name: string;
      /** @enum {unknown} */
      operator: '>' | '>=' | '<' | '<=';
      project_id?: string | null;
      threshold_value: number;
      /** @enum {unknown} */
      window_duration: '5m' | '10m' | '60m';
    };
    CreateApiKeyDto: {
      agents: 'all' | string[];
      expiresAt: string;
      name: string;
      permissions: (
        | 'conversations'
        | 'handoff'
        | 'external_events'
        | 'agents'
        | 'alerts'
        | 'outbound_calling'
        | 'sms'
        | 'keys'
        | 'desk'
        | 'chat'
        | 'dni'
      )[];
    };
    CreateBranchDto: {
      branchName: string;
    };
    CreateChatDto: {
      /** @enum {unknown} */
      client_env?: 'sandbox' | 'pre-release' | 'live';
      message?: string;
      metadata?: Record<string, never>;
      user_id?: string;
    };
    CreateConnectorDto: {
      agentId: string;
      environment: string;
      /** @description matches /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i */
      hostDomain?: string;
      /** @enum {unknown} */
      kind: 'messaging' | 'sms';
    };
    CreateTestCaseDto: {
      name: string;
      state?: Record<string, never>;
      turns: components['schemas']['TestTurnDto'][];
    };
    CreateToolDto: {
      description: string;
      headers?: unknown;
      /** @enum {unknown} */
      method?: 'POST';
      name: string;
      parameters: Record<string, never>;
      timeout_ms?: number;
      url: string;
    };
    CreateTopicDto: {
      actions?: string;
      content: string;
      exampleQueries: components['schemas']['ExampleQueriesDto'];
      isActive?: boolean;
      name: string;
    };
    CreateWebhookEndpointDto: {
      enabled?: boolean;
      event_types: (
        | 'alerts.triggered'
        | 'alerts.resolved'
        | 'conversation.started'
        | 'conversation.ended'
        | 'conversation.analysed'
        | 'handoff.created'
      )[];
      headers?: unknown;
      name?: string;
      timeout_ms?: number;
      url: string;
    };
    DataAccessDto: {
      response_metrics: string[];
      show_transcripts: boolean;
    };
    DebugChatTurnDto: {
      asrLangCode?: string;
      branchId?: string;
      /** @enum {unknown} */
      clientEnv?: 'sandbox' | 'pre-release' | 'live';
      message?: string;
      metadata?: Record<string, never>;
      ttsLangCode?: string;
    };
    Deployment: {
      accountId?: string;
      agentId: string;
      artifactVersion?: number;
      /** Format: date-time */
      createdAt: string;
      createdBy?: string;
      /** @enum {unknown} */
      environment: 'sandbox' | 'pre-release' | 'live';
      id: string;
      message?: string | null;
      version: number;
    };
    DeploymentsQuery: {
      /** @enum {unknown} */
      environment?: 'sandbox' | 'pre-release' | 'live';
    };
    DniReservationDto: {
      attributes: Record<string, never>;
      /** @enum {unknown} */
      client_env?: 'sandbox' | 'pre-release' | 'live';
      ttl_s?: number;
    };
    EnvironmentModelsDto: {
      live?: components['schemas']['ModelSettingsDto'];
      'pre-release'?: components['schemas']['ModelSettingsDto'];
      sandbox?: components['schemas']['ModelSettingsDto'];
    };
    EnvironmentRetrievalDto: {
      live?: components['schemas']['RetrievalSettingsDto'];
      'pre-release'?: components['schemas']['RetrievalSettingsDto'];
      sandbox?: components['schemas']['RetrievalSettingsDto'];
    };
    /**
     * @example {
     *       "success": false,
     *       "error": "name is required",
     *       "error_id": "5f0c6a8e-2b1d-4c3e-9f7a-0d2b1c3e4f5a",
     *       "error_code": "VALIDATION_ERROR",
     *       "error_message": "name is required",
     *       "data": null
     *     }
     */
    ErrorEnvelope: {
      data: unknown;
      /** @description SMS API: the same message */
      detail?: string;
      error: string;
      error_code: string;
      /** @description the correlation id, also in the X-Correlation-Id header */
      error_id: string;
      error_message: string;
      /** @description Alerts API: one row per invalid field */
      errors?: {
        field?: string;
        message?: string;
      }[];
      /** @description Alerts API: the same message */
      message?: string;
      /** @constant */
      success: false;
    };
    ExampleQueriesDto: {
      queries: string[];
    };
    MergeDto: {
      conflictResolutions?: components['schemas']['ConflictResolutionDto'][];
      deploymentMessage?: string;
    };
    ModelSettingsDto: {
      endpoint?: string;
      max_tokens?: number;
      model?: string;
      /** @enum {unknown} */
      provider: 'openai' | 'openai_compatible' | 'embedded';
      temperature?: number;
    };
    NewTopicDto: {
      actions?: string;
      content?: string;
      isActive?: boolean;
      name: string;
    };
    OutboundSmsDto: {
      agent_number?: string;
      message: string;
      user_number: string;
    };
    PatchAlertRuleDto: {
      enabled?: boolean;
      /** @enum {unknown} */
      metric?:
        'turn_latency_p50' | 'turn_latency_p95' | 'api_errors' | 'function_errors' | 'call_crashes' | 'call_volume';
      name?: string;
      /** @enum {unknown} */
      operator?: '>' | '>=' | '<' | '<=';
      project_id?: string | null;
      threshold_value?: number;
      /** @enum {unknown} */
      window_duration?: '5m' | '10m' | '60m';
    };
    PatchApiKeyDto: {
      agents?: unknown;
      expiresAt?: unknown;
      name?: string;
      permissions?: unknown;
    };
    PatchTestCaseDto: {
      name?: string;
      state?: Record<string, never>;
      turns?: components['schemas']['TestTurnDto'][];
    };
    PatchToolDto: {
      description?: string;
      headers?: unknown;
      /** @enum {unknown} */
      method?: 'POST';
      name?: string;
      parameters?: Record<string, never>;
      timeout_ms?: number;
      url?: string;
    };
    PatchTopicDto: {
      actions?: string;
      content?: string;
      exampleQueries?: components['schemas']['ExampleQueriesDto'];
      isActive?: boolean;
      name?: string;
    };
    PatchWebhookEndpointDto: {
      enabled?: boolean;
      event_types?: (
        | 'alerts.triggered'
        | 'alerts.resolved'
        | 'conversation.started'
        | 'conversation.ended'
        | 'conversation.analysed'
        | 'handoff.created'
      )[];
      headers?: unknown;
      name?: string;
      timeout_ms?: number;
      url?: string;
    };
    PlaceOutboundCallDto: {
      country_code?: string;
      /** @enum {unknown} */
      encryption?: 'UDP/RTP' | 'UDP/SRTP' | 'TLS/RTP' | 'TLS/SRTP';
      from_number?: string;
      metadata?: {
        [key: string]: string;
      };
      to_number: string;
    };
    PrivacySettingsDto: {
      redact?: ('email' | 'phone' | 'card' | 'iban' | 'ssn')[] | null;
    };
    PromoteDto: {
      deploymentMessage?: string;
      requireTestsPassing?: boolean;
      /** @enum {unknown} */
      targetEnvironment?: 'sandbox' | 'pre-release' | 'live';
    };
    ProvisionPhoneNumberDto: {
      /** @enum {unknown} */
      environment: 'dev' | 'sandbox' | 'live';
      number: string;
      /** @enum {unknown} */
      pool?: 'main' | 'dni';
    };
    RebuildJob: {
      error: string | null;
      /** Format: date-time */
      finishedAt: string | null;
      name: string;
      report: {
        deadLettered: number;
        events: number;
        generation: number;
        ms: number;
        name: string;
        version: number;
      } | null;
      /** Format: date-time */
      startedAt: string;
      /** @enum {unknown} */
      state: 'running' | 'done' | 'failed';
    };
    RespondChatDto: {
      conversation_id: string;
      message?: string;
    };
    ResponseSettingsDto: {
      greeting: string;
      languageCode?: string;
    };
    RetrievalSettingsDto: {
      endpoint?: string;
      min_similarity?: number;
      /** @enum {unknown} */
      mode: 'lexical' | 'hybrid';
      timeout_ms?: number;
    };
    RollbackDto: {
      deploymentMessage?: string;
    };
    RuntimeSettingsDto: {
      analysis?: components['schemas']['AnalysisSettingsDto'];
      confidence_threshold?: number | null;
      environment_models?: components['schemas']['EnvironmentModelsDto'];
      environment_retrieval?: components['schemas']['EnvironmentRetrievalDto'];
      fallback_text?: string | null;
      model?: components['schemas']['ModelSettingsDto'];
      privacy?: components['schemas']['PrivacySettingsDto'];
      retrieval?: components['schemas']['RetrievalSettingsDto'];
      small_talk?: boolean | null;
      voice?: components['schemas']['VoiceSettingsDto'];
    };
    SetLimitsDto: {
      concurrent_calls: number;
    };
    SimulateInboundCallDto: {
      from: string;
      hang_up?: boolean;
      to: string;
      utterances: string[];
    };
    StartDebugChatDto: {
      branchId?: string;
      /** @enum {unknown} */
      clientEnv?: 'sandbox' | 'pre-release' | 'live';
    };
    TestCase: {
      id: string;
      name: string;
      state: {
        [key: string]: unknown;
      };
      turns: {
        expect?: {
          actions?: string[];
          contains?: string;
          end_conversation?: boolean;
          handoff?: boolean;
          not_contains?: string;
          out_of_domain?: boolean;
          topic?: string;
        };
        user: string;
      }[];
    };
    TestExpectationDto: {
      actions?: string[];
      contains?: string;
      end_conversation?: boolean;
      handoff?: boolean;
      not_contains?: string;
      out_of_domain?: boolean;
      topic?: string;
    };
    TestRun: {
      deploymentId: string;
      /** @enum {unknown} */
      environment: 'sandbox' | 'pre-release' | 'live';
      /** Format: date-time */
      finishedAt: string | null;
      id: string;
      results: {
        name: string;
        passed: boolean;
        testId: string;
        turns: {
          actions: unknown[];
          citedTopic: string | null;
          failures: string[];
          response: string;
          user: string;
        }[];
      }[];
      /** Format: date-time */
      startedAt: string;
      /** @enum {unknown} */
      status: 'running' | 'passed' | 'failed';
      summary: {
        failed: number;
        passed: number;
      };
    };
    TestRunsQuery: {
      deploymentId?: string;
    };
    TestTurnDto: {
      expect?: components['schemas']['TestExpectationDto'];
      user: string;
    };
    Topic: {
      actions: string;
      content: string;
      exampleQueries: {
        queries: string[];
      };
      id: string;
      isActive: boolean;
      name: string;
    };
    VoiceSettingsDto: {
      end_of_turn_max_ms?: number | null;
      end_of_turn_min_ms?: number | null;
      recording?: boolean | null;
    };
    WebhookEndpoint: {
      /** Format: date-time */
      created_at: string;
      enabled: boolean;
      event_types: string[];
      /** @description values masked (`***`) */
      headers: {
        [key: string]: string;
      };
      id: string;
      name: string;
      /** @description in full when created, masked afterwards */
      signing_secret: string;
      timeout_ms: number;
      /** Format: date-time */
      updated_at: string;
      url: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
  Admin_listAccounts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every account */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            accounts: {
              accountId: string;
              /** Format: date-time */
              createdAt: string;
              name: string;
              region: string;
            }[];
          };
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Admin_createAccount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Acme",
         *       "region": "us"
         *     }
         */
        'application/json': components['schemas']['CreateAccountDto'];
      };
    };
    responses: {
      /** @description The account */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            accountId: string;
            /** Format: date-time */
            createdAt: string;
            name: string;
            region: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Admin_createKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateApiKeyDto'];
      };
    };
    responses: {
      /** @description The key, with its secret */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKey'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Admin_listConnectors: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every connector, oldest first */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            connectors: {
              accountId: string;
              agentId: string;
              connectorId: string;
              /** Format: date-time */
              createdAt: string;
              environment: string;
              hostDomain?: string | null;
              /** @enum {unknown} */
              kind: 'messaging' | 'sms';
            }[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Admin_createConnector: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateConnectorDto'];
      };
    };
    responses: {
      /** @description The connector, with its token or webhook secret (shown once) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            accountId: string;
            agentId: string;
            connectorId: string;
            connectorToken?: string;
            /** Format: date-time */
            createdAt: string;
            environment: string;
            hostDomain?: string;
            kind: string;
            webhookSecret?: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  CallLimits_set: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "concurrent_calls": 20
         *     }
         */
        'application/json': components['schemas']['SetLimitsDto'];
      };
    };
    responses: {
      /** @description The limit and the calls holding a line now */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            concurrent_calls: number;
            in_progress: number;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Admin_listNumbers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every number, by environment then number */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            phoneNumbers: {
              agentId: string;
              /** @enum {unknown} */
              environment: 'dev' | 'sandbox' | 'live';
              number: string;
              /** @enum {unknown} */
              pool: 'main' | 'dni';
              /** Format: date-time */
              provisionedAt: string;
              /** @description DNI pool numbers only: a reservation holds it now */
              reserved?: boolean;
              /**
               * Format: date-time
               * @description DNI pool numbers only: when the reservation ends
               */
              reservedUntil?: string | null;
            }[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Admin_provisionNumber: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ProvisionPhoneNumberDto'];
      };
    };
    responses: {
      /** @description Already provisioned to this agent */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            environment: string;
            number: string;
            /** @enum {unknown} */
            pool: 'main' | 'dni';
          };
        };
      };
      /** @description The number */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            environment: string;
            number: string;
            /** @enum {unknown} */
            pool: 'main' | 'dni';
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Admin_changeSettings: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AgentSettingsDto'];
      };
    };
    responses: {
      /** @description The settings */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            chunked_streaming: boolean;
            /** Format: date-time */
            updatedAt: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AlertsAdmin_evaluate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description What the round evaluated and changed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            evaluated: number;
            /** Format: date-time */
            evaluated_at: string;
            transitions: {
              alert_rule_id: string;
              current_value: number | null;
              from: string;
              to: string;
            }[];
          };
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  InboundCalls_receive: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "from": "+15550001111",
         *       "to": "+15550002222",
         *       "utterances": [
         *         "when are you open"
         *       ]
         *     }
         */
        'application/json': components['schemas']['SimulateInboundCallDto'];
      };
    };
    responses: {
      /** @description The call (its `call_sid` is its conversation id) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            call_sid: string;
            reason: ('concurrent-call-limit' | 'no-deployment' | 'cancelled') | null;
            /** @enum {unknown} */
            status: 'in-progress' | 'ended' | 'failed';
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  InboundCalls_status: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        callSid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The call */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            call_sid: string;
            from: string;
            reason: ('concurrent-call-limit' | 'no-deployment' | 'cancelled') | null;
            /** @enum {unknown} */
            status: 'in-progress' | 'ended' | 'failed';
            to: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  InboundCalls_hangUp: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        callSid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The call, ended */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            call_sid: string;
            from: string;
            reason: ('concurrent-call-limit' | 'no-deployment' | 'cancelled') | null;
            /** @enum {unknown} */
            status: 'in-progress' | 'ended' | 'failed';
            to: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Clock_advance: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "seconds": 3600
         *     }
         */
        'application/json': components['schemas']['AdvanceClockDto'];
      };
    };
    responses: {
      /** @description The platform time now */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            now: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ReadModelsAdmin_listDeadLetters: {
    parameters: {
      query?: {
        /** @description one consumer */
        name?: string;
        /** @description default open */
        status?: 'open' | 'retry' | 'resolved' | 'all';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The dead letters */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deadLetters: {
              attempts: number;
              error: string;
              eventId: string;
              eventType: string;
              firstFailedAt: string;
              generation: number | null;
              /** @enum {unknown} */
              kind: 'projection' | 'process-manager' | 'timer';
              lastFailedAt: string;
              name: string;
              position: string;
              resolvedAt: string | null;
              retriedAt: string | null;
              /** @enum {unknown} */
              status: 'open' | 'retry' | 'resolved';
              streamId: string;
              version: number | null;
            }[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  EmbeddingEndpoints_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every endpoint, by name */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            endpoints: {
              base_url: string;
              /** Format: date-time */
              created_at: string;
              has_api_key: boolean;
              model: string;
              name: string;
            }[];
          };
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  EmbeddingEndpoints_add: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "acme-embed",
         *       "base_url": "https://embed.example.com",
         *       "api_key": "sk-…",
         *       "model": "text-embedding-3-small"
         *     }
         */
        'application/json': components['schemas']['AddEmbeddingEndpointDto'];
      };
    };
    responses: {
      /** @description The endpoint */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            base_url: string;
            /** Format: date-time */
            created_at: string;
            has_api_key: boolean;
            model: string;
            name: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  EmbeddingEndpoints_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        endpointName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  LlmEndpoints_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every endpoint, by name */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            endpoints: {
              base_url: string;
              /** Format: date-time */
              created_at: string;
              has_api_key: boolean;
              name: string;
            }[];
          };
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  LlmEndpoints_add: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "acme-llm",
         *       "base_url": "https://llm.example.com",
         *       "api_key": "sk-…"
         *     }
         */
        'application/json': components['schemas']['AddLlmEndpointDto'];
      };
    };
    responses: {
      /** @description The endpoint */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            base_url: string;
            /** Format: date-time */
            created_at: string;
            has_api_key: boolean;
            name: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  LlmEndpoints_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        endpointName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ReadModelsAdmin_status: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The read side of this process */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            events: number | null;
            generations: {
              current: boolean;
              generation: number;
              lagEvents: number | null;
              name: string;
              position: string;
              status: string;
              version: number;
            }[];
            readModels: {
              deadLetters: number | null;
              degraded: boolean;
              error: string | null;
              generation: number | null;
              lagEvents: number | null;
              name: string;
              position: string;
              /** @enum {unknown} */
              role: 'leader' | 'follower';
              /** @enum {unknown} */
              state: 'starting' | 'building' | 'serving' | 'failed' | 'stopped';
              version: number;
            }[];
            rebuilds: components['schemas']['RebuildJob'][];
          };
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ReadModelsAdmin_rebuild: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rebuild, under way */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RebuildJob'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  SmsAdmin_messages: {
    parameters: {
      query?: {
        /** @description to or from this E.164 number */
        number?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The messages */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            messages: {
              carrier: string | null;
              conversation_id: string | null;
              error: string | null;
              from: string;
              id: string;
              provider_message_id: string | null;
              /** Format: date-time */
              sent_at: string;
              status: string;
              text: string;
              to: string;
            }[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  MessagingHttp_accessToken: {
    parameters: {
      query?: never;
      header: {
        /** @description the widget's site domain */
        'X-Host': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JWT for /api/v1/sessions and the WebSocket */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            access_token: string;
            expires_in: number;
            /** @constant */
            token_type: 'Bearer';
          };
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  MessagingHttp_createSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "streaming_enabled": true,
         *       "platform": "web"
         *     }
         */
        'application/json': {
          platform?: string;
          streaming_enabled?: boolean;
        };
      };
    };
    responses: {
      /** @description The session */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            session_id: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ChatDemo_page: {
    parameters: {
      query?: {
        /** @description a messaging connector's token */
        connector?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An HTML page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  OpenApi_page: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An HTML page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  OpenApi_asset: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Health_healthz: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Up */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            status: 'ok';
          };
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Metrics_scrape: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Prometheus text format */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  OpenApi_document: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Health_readyz: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ready (possibly `degraded`: some events dead-lettered) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            eventStore: {
              [key: string]: unknown;
            };
            /** @enum {unknown} */
            health: 'ok' | 'degraded';
            processManagers: {
              deadLetters?: number | null;
              error?: string | null;
              /** @enum {unknown} */
              health: 'ok' | 'degraded';
              name?: string;
            }[];
            projections: {
              deadLetters?: number | null;
              error?: string | null;
              /** @enum {unknown} */
              health: 'ok' | 'degraded';
              name?: string;
            }[];
            /** @enum {unknown} */
            status: 'ready';
            timers: {
              deadLetters?: number | null;
              error?: string | null;
              /** @enum {unknown} */
              health: 'ok' | 'degraded';
              name?: string;
            }[];
            voice?: {
              /** @enum {unknown} */
              vad?: 'silero' | 'energy';
            };
          };
        };
      };
      /** @description Not ready: the store fails or a read model lags */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            eventStore: {
              [key: string]: unknown;
            };
            health: string;
            projections: {
              deadLetters?: number | null;
              error?: string | null;
              /** @enum {unknown} */
              health: 'ok' | 'degraded';
              name?: string;
            }[];
            /** @enum {unknown} */
            status: 'not_ready';
          };
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Analytics_series: {
    parameters: {
      query?: {
        channel?: ('CHAT' | 'WEBCHAT' | 'VOICE-SIP' | 'SMS')[];
        /** @description default live */
        client_env?: 'sandbox' | 'pre-release' | 'live';
        /** @description ISO 8601, exclusive (default: now) */
        end_time?: string;
        /** @description day (default; range ≤ 92 days) or hour (≤ 7 days) */
        granularity?: 'hour' | 'day';
        /** @description ISO 8601 (default: 7 days before end_time) */
        start_time?: string;
      };
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The series */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            account_id: string;
            buckets: {
              abandoned: number;
              contained: number;
              conversations: number;
              duration_s: {
                p50: number | null;
                p90: number | null;
              };
              first_response_ms: {
                p50: number | null;
                p90: number | null;
              };
              handoffs: number;
              not_connected: number;
              ood_turns: number;
              /** Format: date-time */
              time: string;
              turns: number;
            }[];
            /** @enum {unknown} */
            granularity: 'hour' | 'day';
            project_id: string;
            top_topics: {
              topic: string;
              turns: number;
            }[];
            totals: {
              abandoned: number;
              contained: number;
              conversations: number;
              duration_s: {
                p50: number | null;
                p90: number | null;
              };
              first_response_ms: {
                p50: number | null;
                p90: number | null;
              };
              handoffs: number;
              not_connected: number;
              ood_turns: number;
              turns: number;
            };
            unanswered: {
              conversation_id: string;
              count: number;
              /** Format: date-time */
              last_at: string;
              text: string;
            }[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ChatApi_close: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CloseChatDto'];
      };
    };
    responses: {
      /** @description Ended */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Gone */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ChatApi_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "user_id": "u-1",
         *       "message": "when are you open",
         *       "metadata": {
         *         "order": "A-17"
         *       },
         *       "client_env": "live"
         *     }
         */
        'application/json': components['schemas']['CreateChatDto'];
      };
    };
    responses: {
      /** @description The conversation and its first answer */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            conversation_id: string;
            end_conversation: boolean;
            handoff?: {
              destination: string;
              reason: string;
              shared_id?: string;
            };
            response: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ChatApi_respond: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "conversation_id": "CHAT-…",
         *       "message": "and on Sundays?"
         *     }
         */
        'application/json': components['schemas']['RespondChatDto'];
      };
    };
    responses: {
      /** @description The answer */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            conversation_id: string;
            end_conversation: boolean;
            handoff?: {
              destination: string;
              reason: string;
              shared_id?: string;
            };
            response: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Gone */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ConversationsApi_list_v1: {
    parameters: {
      query?: {
        channel?: string[];
        /** @description default live; `draft`: draft chats on a branch */
        client_env?: 'sandbox' | 'pre-release' | 'live' | 'draft';
        /** @description the `cursor` of the previous page (v3) */
        cursor?: string;
        /** @description ISO 8601 */
        end_time?: string;
        /** @description only conversations in progress (true) or ended (false) */
        in_progress?: 'true' | 'false';
        /** @description the conversation state */
        include_context_state?: 'true' | 'false';
        /** @description each turn with `latency: {total_s, stages}` */
        include_latency?: 'true' | 'false';
        /** @description each turn with its retrieval and action metadata */
        include_turn_metadata?: 'true' | 'false';
        /** @description 1 to 5000 (default 5) */
        limit?: string;
        offset?: string;
        /** @description post-call analysis outcome, repeatable (v3, v2); a conversation not analysed yet has none */
        outcome?: ('contained' | 'handoff' | 'abandoned' | 'not_connected')[];
        /** @description the search text, with query_type (v3) */
        query?: string;
        /** @description search mode (v3) */
        query_type?: 'transcript' | 'semantic';
        /** @description a random sample of the range (v3) */
        sample?: 'random';
        /** @description ISO 8601 */
        start_time?: string;
        /** @description with query_type=transcript (v3) */
        turn_type?: 'user' | 'agent';
        variant_id?: string;
        variant_name?: string;
      };
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of conversations */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            conversations: components['schemas']['Conversation'][];
            cursor?: string | null;
            next_offset?: number | null;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ConversationsApi_one_v1: {
    parameters: {
      query?: {
        /** @description the conversation as it was at an ISO 8601 time or a stream revision */
        as_of?: string;
        /** @description the conversation state */
        include_context_state?: 'true' | 'false';
        /** @description each turn with `latency: {total_s, stages}` */
        include_latency?: 'true' | 'false';
        /** @description each turn with its retrieval and action metadata */
        include_turn_metadata?: 'true' | 'false';
      };
      header?: never;
      path: {
        accountId: string;
        conversationId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The conversation */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Conversation'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Concurrency_series: {
    parameters: {
      query: {
        channel?: ('CHAT' | 'WEBCHAT' | 'VOICE-SIP' | 'SMS')[];
        /** @description default live */
        client_env?: 'sandbox' | 'pre-release' | 'live';
        /** @description at most 7 days after start_time; rounded up */
        end_time: string;
        language?: string;
        phone_number?: string;
        slice_by?: 'variant' | 'language' | 'phone_number' | 'channel';
        /** @description ISO 8601; rounded down to a 5-minute mark */
        start_time: string;
        /** @description not with variant_name */
        variant_id?: string;
        /** @description not with variant_id */
        variant_name?: string;
      };
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The series */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            account_id: string;
            intervals: {
              channel?: string;
              language?: string;
              max_concurrent_conversations: number;
              phone_number?: string;
              /** Format: date-time */
              time: string;
              variant_id?: string;
              variant_name?: string;
            }[];
            project_id: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Handoff_state: {
    parameters: {
      query?: {
        /** @description the conversation id */
        id?: string;
        /** @description the handoff shared id */
        shared_id?: string;
      };
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The handoff state */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: unknown;
            id: string;
            shared_id: string | null;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AccountAgents_list: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The agents */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Agent'][];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AccountAgents_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Support",
         *       "responseSettings": {
         *         "greeting": "Hi, how can I help?",
         *         "languageCode": "en-GB"
         *       }
         *     }
         */
        'application/json': components['schemas']['CreateAgentDto'];
      };
    };
    responses: {
      /** @description The agent */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Agent'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  DataAccess_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The settings */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            response_metrics: string[];
            show_transcripts: boolean;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  DataAccess_put: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DataAccessDto'];
      };
    };
    responses: {
      /** @description The settings */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            response_metrics: string[];
            show_transcripts: boolean;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ApiKeys_list: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The keys */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            apiKeys: components['schemas']['ApiKey'][];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ApiKeys_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "reporting",
         *       "agents": "all",
         *       "permissions": [
         *         "conversations"
         *       ],
         *       "expiresAt": "2027-01-01T00:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['CreateApiKeyDto'];
      };
    };
    responses: {
      /** @description The key, with its secret */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKey'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ApiKeys_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKey'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ApiKeys_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ApiKeys_patch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        keyId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchApiKeyDto'];
      };
    };
    responses: {
      /** @description The key */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKey'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  CallLimits_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The limit */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            concurrent_calls: number;
            in_progress: number;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Agent_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The agent */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Agent'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Agent_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_list: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The branches */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            branches: components['schemas']['Branch'][];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "branchName": "hours"
         *     }
         */
        'application/json': components['schemas']['CreateBranchDto'];
      };
    };
    responses: {
      /** @description The branch */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Branch'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_behavior: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The behavior */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            behavior: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_editBehavior: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "behavior": "Be brief and friendly."
         *     }
         */
        'application/json': components['schemas']['BehaviorDto'];
      };
    };
    responses: {
      /** @description The behavior */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            behavior: string;
            /** @constant */
            success: true;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ExampleQueries_add: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "conversationId": "AS_CHAT_6f1c…",
         *       "turnIndex": 1,
         *       "topicId": "topic_ab12cd34"
         *     }
         */
        'application/json': components['schemas']['AddExampleQueryDto'];
      };
    };
    responses: {
      /** @description Added to the topic (or it had the words already: `added: false`) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            added: boolean;
            branchId: string;
            query: string;
            topic: components['schemas']['Topic'];
          };
        };
      };
      /** @description A new topic made with the words */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            added: boolean;
            branchId: string;
            query: string;
            topic: components['schemas']['Topic'];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_topics: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The topics */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Topic'][];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_addTopic: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Opening hours",
         *       "content": "We are open 9 to 5.",
         *       "exampleQueries": {
         *         "queries": [
         *           "when are you open"
         *         ]
         *       },
         *       "actions": "log_metric name=asked_hours value=1"
         *     }
         */
        'application/json': components['schemas']['CreateTopicDto'];
      };
    };
    responses: {
      /** @description The topic */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Topic'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_removeTopic: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
        topicId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_editTopic: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
        topicId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchTopicDto'];
      };
    };
    responses: {
      /** @description Changed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Branches_merge: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "deploymentMessage": "Hours"
         *     }
         */
        'application/json': components['schemas']['MergeDto'];
      };
    };
    responses: {
      /** @description The new sandbox deployment */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string | null;
            sequence: string;
            testRunIds: string[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  RuntimeSettings_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The settings, and which fields the agent set */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            customized: (
              | 'confidence_threshold'
              | 'fallback_text'
              | 'small_talk'
              | 'model'
              | 'environment_models'
              | 'retrieval'
              | 'environment_retrieval'
              | 'voice'
              | 'privacy'
              | 'analysis'
            )[];
            settings: {
              analysis: {
                fields: {
                  description: string;
                  name: string;
                  /** @enum {unknown} */
                  type: 'string' | 'number' | 'boolean' | 'enum';
                  values?: string[];
                }[];
              };
              confidence_threshold: number;
              environment_models: {
                [key: string]: {
                  endpoint?: string;
                  max_tokens?: number;
                  model?: string;
                  /** @enum {unknown} */
                  provider: 'openai' | 'openai_compatible' | 'embedded';
                  temperature?: number;
                };
              };
              environment_retrieval: {
                [key: string]: {
                  endpoint?: string;
                  min_similarity?: number;
                  /** @enum {unknown} */
                  mode: 'lexical' | 'hybrid';
                  timeout_ms?: number;
                };
              };
              fallback_text: string;
              model: {
                endpoint?: string;
                max_tokens?: number;
                model?: string;
                /** @enum {unknown} */
                provider: 'openai' | 'openai_compatible' | 'embedded';
                temperature?: number;
              } | null;
              privacy: {
                redact: ('email' | 'phone' | 'card' | 'iban' | 'ssn')[];
              };
              retrieval: {
                endpoint?: string;
                min_similarity?: number;
                /** @enum {unknown} */
                mode: 'lexical' | 'hybrid';
                timeout_ms?: number;
              };
              small_talk: boolean;
              voice: {
                end_of_turn_max_ms?: number;
                end_of_turn_min_ms?: number;
                recording: boolean;
              };
            };
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  RuntimeSettings_put: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "confidence_threshold": 0.3,
         *       "fallback_text": "Please call the front desk.",
         *       "small_talk": true,
         *       "voice": {
         *         "recording": true
         *       }
         *     }
         */
        'application/json': components['schemas']['RuntimeSettingsDto'];
      };
    };
    responses: {
      /** @description The settings after the change */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            customized: (
              | 'confidence_threshold'
              | 'fallback_text'
              | 'small_talk'
              | 'model'
              | 'environment_models'
              | 'retrieval'
              | 'environment_retrieval'
              | 'voice'
              | 'privacy'
              | 'analysis'
            )[];
            settings: {
              analysis: {
                fields: {
                  description: string;
                  name: string;
                  /** @enum {unknown} */
                  type: 'string' | 'number' | 'boolean' | 'enum';
                  values?: string[];
                }[];
              };
              confidence_threshold: number;
              environment_models: {
                [key: string]: {
                  endpoint?: string;
                  max_tokens?: number;
                  model?: string;
                  /** @enum {unknown} */
                  provider: 'openai' | 'openai_compatible' | 'embedded';
                  temperature?: number;
                };
              };
              environment_retrieval: {
                [key: string]: {
                  endpoint?: string;
                  min_similarity?: number;
                  /** @enum {unknown} */
                  mode: 'lexical' | 'hybrid';
                  timeout_ms?: number;
                };
              };
              fallback_text: string;
              model: {
                endpoint?: string;
                max_tokens?: number;
                model?: string;
                /** @enum {unknown} */
                provider: 'openai' | 'openai_compatible' | 'embedded';
                temperature?: number;
              } | null;
              privacy: {
                redact: ('email' | 'phone' | 'card' | 'iban' | 'ssn')[];
              };
              retrieval: {
                endpoint?: string;
                min_similarity?: number;
                /** @enum {unknown} */
                mode: 'lexical' | 'hybrid';
                timeout_ms?: number;
              };
              small_talk: boolean;
              voice: {
                end_of_turn_max_ms?: number;
                end_of_turn_min_ms?: number;
                recording: boolean;
              };
            };
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTests_list: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The test cases */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCase'][];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTests_add: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "asks for refunds",
         *       "turns": [
         *         {
         *           "user": "refund please",
         *           "expect": {
         *             "topic": "Refunds"
         *           }
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['CreateTestCaseDto'];
      };
    };
    responses: {
      /** @description The test case */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCase'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTests_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
        testId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The test case */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCase'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTests_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
        testId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTests_edit: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
        testId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchTestCaseDto'];
      };
    };
    responses: {
      /** @description Changed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTools_list: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tools */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentTool'][];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTools_add: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "order_status",
         *       "description": "Looks an order up by its number",
         *       "url": "https://tools.example.com/orders/status",
         *       "parameters": {
         *         "type": "object",
         *         "properties": {
         *           "order": {
         *             "type": "string"
         *           }
         *         },
         *         "required": [
         *           "order"
         *         ]
         *       },
         *       "headers": {
         *         "Authorization": "Bearer t0ken"
         *       },
         *       "timeout_ms": 3000
         *     }
         */
        'application/json': components['schemas']['CreateToolDto'];
      };
    };
    responses: {
      /** @description The tool */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentTool'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTools_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
        toolId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tool */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AgentTool'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTools_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
        toolId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AgentTools_edit: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        branchId: string;
        toolId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchToolDto'];
      };
    };
    responses: {
      /** @description Changed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  DebugChat_start: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "clientEnv": "sandbox"
         *     }
         */
        'application/json': components['schemas']['StartDebugChatDto'];
      };
    };
    responses: {
      /** @description The greeting and the turn metadata */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            conversationEnded: boolean;
            conversationId: string;
            delayedResponse: boolean;
            metadata: {
              citedTopic?: string;
              currentNode?: string;
              functionEvents?: unknown[];
              handoffDestination?: string;
              llmRequests?: unknown[];
              metrics?: {
                [key: string]: unknown;
              };
              nodeTrace?: string[];
              retrievedSources?: string[];
              retrievedTopics?: string[];
              state: {
                [key: string]: unknown;
              };
            };
            response: string;
            userInput: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  DebugChat_turn: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        conversationId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "clientEnv": "sandbox",
         *       "message": "when are you open"
         *     }
         */
        'application/json': components['schemas']['DebugChatTurnDto'];
      };
    };
    responses: {
      /** @description The answer and the turn metadata */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            conversationEnded: boolean;
            conversationId: string;
            delayedResponse: boolean;
            metadata: {
              citedTopic?: string;
              currentNode?: string;
              functionEvents?: unknown[];
              handoffDestination?: string;
              llmRequests?: unknown[];
              metrics?: {
                [key: string]: unknown;
              };
              nodeTrace?: string[];
              retrievedSources?: string[];
              retrievedTopics?: string[];
              state: {
                [key: string]: unknown;
              };
            };
            response: string;
            userInput: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Gone */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Deployments_list: {
    parameters: {
      query?: {
        environment?: 'sandbox' | 'pre-release' | 'live';
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deployments */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deployments: components['schemas']['Deployment'][];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Deployments_served: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        deploymentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Its content */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            behavior: string;
            deploymentId: string;
            /** @enum {unknown} */
            environment: 'sandbox' | 'pre-release' | 'live';
            topics: components['schemas']['Topic'][];
            version: number;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Deployments_promote: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        deploymentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "targetEnvironment": "live"
         *     }
         */
        'application/json': components['schemas']['PromoteDto'];
      };
    };
    responses: {
      /** @description The new deployment */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deployment: components['schemas']['Deployment'];
            testRunIds: string[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Deployments_rollback: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        deploymentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RollbackDto'];
      };
    };
    responses: {
      /** @description The deployment now active */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deployment: components['schemas']['Deployment'];
            testRunIds: string[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Deployments_active: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description By environment; null where none is active */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            activeDeployments: {
              [key: string]: components['schemas']['Deployment'] | null;
            };
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ToolSecret_rotate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new secret */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            signing_secret: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  TestRuns_list: {
    parameters: {
      query?: {
        deploymentId?: string;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The runs */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            testRuns: components['schemas']['TestRun'][];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  TestRuns_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        testRunId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestRun'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ToolSecret_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The secret, masked */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            issued_at: string;
            signing_secret: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AlertRules_list: {
    parameters: {
      query?: {
        enabled?: 'true' | 'false';
        metric?:
          'turn_latency_p50' | 'turn_latency_p95' | 'api_errors' | 'function_errors' | 'call_crashes' | 'call_volume';
        project_id?: string;
        state?: 'ok' | 'alert' | 'no_data' | 'unknown';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rules */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AlertRule'][];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AlertRules_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "slow answers",
         *       "project_id": null,
         *       "metric": "turn_latency_p95",
         *       "operator": ">",
         *       "threshold_value": 2000,
         *       "window_duration": "5m"
         *     }
         */
        'application/json': components['schemas']['CreateAlertRuleDto'];
      };
    };
    responses: {
      /** @description The rule */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertRule'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AlertRules_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rule */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertRule'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AlertRules_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AlertRules_patch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchAlertRuleDto'];
      };
    };
    responses: {
      /** @description The rule */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertRule'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AlertRules_firing: {
    parameters: {
      query?: {
        enabled?: 'true' | 'false';
        metric?:
          'turn_latency_p50' | 'turn_latency_p95' | 'api_errors' | 'function_errors' | 'call_crashes' | 'call_volume';
        project_id?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rules in the alerting state */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              alert_rule_id: string;
              current_value: number | null;
              /** Format: date-time */
              last_evaluated_at: string | null;
              metric: string;
              name: string;
              operator: string;
              project_id: string | null;
              /** Format: date-time */
              since: string | null;
              threshold_value: number;
              window_duration: string;
            }[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ApiKeySelf_self: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key (secret masked) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKey'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Dni_reserve: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "attributes": {
         *         "shared_id": "visitor-42",
         *         "campaign": "spring"
         *       },
         *       "ttl_s": 900
         *     }
         */
        'application/json': components['schemas']['DniReservationDto'];
      };
    };
    responses: {
      /** @description The number and when it returns to the pool */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            dni: string;
            /** Format: date-time */
            expires_at: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Read models lagging (READ_MODEL_LAGGING) or not ready */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ExternalEvents_deliver: {
    parameters: {
      query: {
        account_id: string;
        event_id_location: 'headers' | 'querystring' | 'payload';
        /** @description where the event id is in that location */
        event_id_path: string;
        project_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "data": {
         *         "id": "evt-…",
         *         "status": "paid"
         *       }
         *     }
         */
        '*/*': unknown;
      };
    };
    responses: {
      /** @description Queued for the conversation */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            event_id: string;
            status: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  OutboundCalls_place: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "to_number": "+447700900123",
         *       "metadata": {
         *         "order": "A-17"
         *       }
         *     }
         */
        'application/json': components['schemas']['PlaceOutboundCallDto'];
      };
    };
    responses: {
      /** @description The call */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            call_sid: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  OutboundCalls_status: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        callSid: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The status */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            call_sid: string;
            reason: string | null;
            status: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Sms_outbound: {
    parameters: {
      query?: never;
      header?: {
        'x-token-id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "user_number": "+447700900123",
         *       "message": "Your order shipped."
         *     }
         */
        'application/json': components['schemas']['OutboundSmsDto'];
      };
    };
    responses: {
      /** @description Queued */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agent_number: string;
            conversation_id: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Sms_inbound: {
    parameters: {
      query?: never;
      header?: {
        'x-signature'?: string;
      };
      path: {
        connectorId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "from": "+447700900123",
         *       "to": "+15550100001",
         *       "text": "when do you open",
         *       "provider_message_id": "SM1"
         *     }
         */
        'application/json': {
          from: string;
          provider_message_id: string;
          text: string;
          to: string;
        };
      };
    };
    responses: {
      /** @description Received */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            conversation_id: string;
            status: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  WebhookEndpoints_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoints */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookEndpoint'][];
          };
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  WebhookEndpoints_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "ops",
         *       "url": "https://example.com/hooks",
         *       "event_types": [
         *         "alerts.triggered"
         *       ]
         *     }
         */
        'application/json': components['schemas']['CreateWebhookEndpointDto'];
      };
    };
    responses: {
      /** @description The endpoint */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Conflict */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  WebhookEndpoints_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        endpointId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  WebhookEndpoints_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        endpointId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  WebhookEndpoints_patch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        endpointId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchWebhookEndpointDto'];
      };
    };
    responses: {
      /** @description The endpoint */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Body larger than 1 MiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  WebhookEndpoints_deliveries: {
    parameters: {
      query?: {
        limit?: string;
      };
      header?: never;
      path: {
        endpointId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The attempts */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              attempt: number;
              /** Format: date-time */
              attempted_at: string;
              delivery_id: string;
              delivery_status: string;
              duration_ms: number;
              error: string | null;
              event_id: string;
              event_type: string;
              /** Format: date-time */
              next_attempt_at: string | null;
              outcome: string;
              status_code: number | null;
            }[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  WebhookEndpoints_rotateSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        endpointId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new secret */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            signing_secret: string;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Refused by the rules of the resource */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ConversationsApi_list_v2: {
    parameters: {
      query?: {
        channel?: string[];
        /** @description default live; `draft`: draft chats on a branch */
        client_env?: 'sandbox' | 'pre-release' | 'live' | 'draft';
        /** @description the `cursor` of the previous page (v3) */
        cursor?: string;
        /** @description ISO 8601 */
        end_time?: string;
        /** @description only conversations in progress (true) or ended (false) */
        in_progress?: 'true' | 'false';
        /** @description the conversation state */
        include_context_state?: 'true' | 'false';
        /** @description each turn with `latency: {total_s, stages}` */
        include_latency?: 'true' | 'false';
        /** @description each turn with its retrieval and action metadata */
        include_turn_metadata?: 'true' | 'false';
        /** @description 1 to 5000 (default 5) */
        limit?: string;
        offset?: string;
        /** @description post-call analysis outcome, repeatable (v3, v2); a conversation not analysed yet has none */
        outcome?: ('contained' | 'handoff' | 'abandoned' | 'not_connected')[];
        /** @description the search text, with query_type (v3) */
        query?: string;
        /** @description search mode (v3) */
        query_type?: 'transcript' | 'semantic';
        /** @description a random sample of the range (v3) */
        sample?: 'random';
        /** @description ISO 8601 */
        start_time?: string;
        /** @description with query_type=transcript (v3) */
        turn_type?: 'user' | 'agent';
        variant_id?: string;
        variant_name?: string;
      };
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of conversations */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            conversations: components['schemas']['Conversation'][];
            cursor?: string | null;
            next_offset?: number | null;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ConversationsApi_one_v2: {
    parameters: {
      query?: {
        /** @description the conversation as it was at an ISO 8601 time or a stream revision */
        as_of?: string;
        /** @description the conversation state */
        include_context_state?: 'true' | 'false';
        /** @description each turn with `latency: {total_s, stages}` */
        include_latency?: 'true' | 'false';
        /** @description each turn with its retrieval and action metadata */
        include_turn_metadata?: 'true' | 'false';
      };
      header?: never;
      path: {
        accountId: string;
        conversationId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The conversation */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Conversation'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ConversationsApi_list_v3: {
    parameters: {
      query?: {
        channel?: string[];
        /** @description default live; `draft`: draft chats on a branch */
        client_env?: 'sandbox' | 'pre-release' | 'live' | 'draft';
        /** @description the `cursor` of the previous page (v3) */
        cursor?: string;
        /** @description ISO 8601 */
        end_time?: string;
        /** @description only conversations in progress (true) or ended (false) */
        in_progress?: 'true' | 'false';
        /** @description the conversation state */
        include_context_state?: 'true' | 'false';
        /** @description each turn with `latency: {total_s, stages}` */
        include_latency?: 'true' | 'false';
        /** @description each turn with its retrieval and action metadata */
        include_turn_metadata?: 'true' | 'false';
        /** @description 1 to 5000 (default 5) */
        limit?: string;
        offset?: string;
        /** @description post-call analysis outcome, repeatable (v3, v2); a conversation not analysed yet has none */
        outcome?: ('contained' | 'handoff' | 'abandoned' | 'not_connected')[];
        /** @description the search text, with query_type (v3) */
        query?: string;
        /** @description search mode (v3) */
        query_type?: 'transcript' | 'semantic';
        /** @description a random sample of the range (v3) */
        sample?: 'random';
        /** @description ISO 8601 */
        start_time?: string;
        /** @description with query_type=transcript (v3) */
        turn_type?: 'user' | 'agent';
        variant_id?: string;
        variant_name?: string;
      };
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of conversations */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            conversations: components['schemas']['Conversation'][];
            cursor?: string | null;
            next_offset?: number | null;
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ConversationsApi_one_v3: {
    parameters: {
      query?: {
        /** @description the conversation as it was at an ISO 8601 time or a stream revision */
        as_of?: string;
        /** @description the conversation state */
        include_context_state?: 'true' | 'false';
        /** @description each turn with `latency: {total_s, stages}` */
        include_latency?: 'true' | 'false';
        /** @description each turn with its retrieval and action metadata */
        include_turn_metadata?: 'true' | 'false';
      };
      header?: never;
      path: {
        accountId: string;
        conversationId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The conversation */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Conversation'];
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  ConversationsApi_events: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        conversationId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The events */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            events: {
              actor?: string | null;
              data: {
                [key: string]: unknown;
              };
              /** Format: date-time */
              occurred_at: string;
              position: string;
              revision: number;
              type: string;
            }[];
          };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  PersonalData_erase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        conversationId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Erased */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  Recording_recording: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
        conversationId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The recording */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'audio/wav': string;
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  AuditExport_events: {
    parameters: {
      query?: {
        /** @description a `position` or `next_cursor` handed out before: events after it */
        cursor?: string;
        /** @description ISO 8601 with a zone: events before it */
        end_time?: string;
        /** @description events in this answer, 1 to 10000 (default 1000) */
        limit?: number;
        /** @description ISO 8601 with a zone: events at or after it */
        start_time?: string;
      };
      header?: never;
      path: {
        accountId: string;
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One JSON object a line: events, then the closing line */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/x-ndjson':
            | {
                actor?: string | null;
                conversation_id: string;
                data: {
                  [key: string]: unknown;
                };
                /** Format: date-time */
                occurred_at: string;
                position: string;
                revision: number;
                type: string;
              }
            | {
                /** @constant */
                end: true;
                next_cursor: string | null;
              };
        };
      };
      /** @description Bad input (the field is named in the message) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Missing, unknown, deleted or expired credential */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Another account's resource, an agent outside the key's scope, or a missing permission */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Rate limited (Retry-After) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Any other error, in the same envelope */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
}
