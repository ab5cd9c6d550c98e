'use strict';
// The six real-world corpora of benchmark/data (provenance and shapes in its README), each
// with the schemas a careful user would write for it: a shorn schema (`shorn(t)`, built with
// the caller's `t`, so this module loads no codec) and an Avro schema for avsc. The test
// (__test__/corpora.test.js) and the benchmark (fixtures.js) both read them from here.
//
// Each schema takes exactly what JSON.parse gives for the file and gives it back: no value is
// converted before encoding. The schemas follow the data; where the data cannot say (an
// always-empty array's items, an always-null field) the comment says what was chosen.
//
// Per corpus: `name`, `file` (in benchmark/data), `probe` (one cheap number read from a
// decoded value, so a timed loop consumes its result), `shorn(t)`, and `avsc`: { schema (Avro
// JSON), logicalTypes(avro)?, toAvro(value)?, fromAvro(value)? }. toAvro and fromAvro are the
// only value changes, and only for what Avro cannot express: see gsoc-2018 (field names) and
// twitter / github_events (absent keys).

const fs = require('node:fs');
const path = require('node:path');

const DATA_DIR = path.join(__dirname, 'data');

// ---- Avro helpers ---------------------------------------------------------------------------

// Avro defines each named type (record, enum) once; later uses give only its name. avsc reads a
// schema depth first, fields in order, which is the order these builders are called in, so
// the first call of a name defines it. One namer per schema build.
function avroNamer() {
  const defined = new Set();
  const named = (name, build) => {
    if (defined.has(name)) return name;
    defined.add(name);
    return { name, ...build() };
  };
  return {
    // `fields`: { name: type }; an avroOptional(...) type carries its null default along.
    record: (name, fields) =>
      named(name, () => ({
        type: 'record',
        fields: Object.entries(fields).map(([field, type]) =>
          type && type.optionalField ? { name: field, type: type.type, default: null } : { name: field, type },
        ),
      })),
    enum: (name, symbols) => named(name, () => ({ type: 'enum', symbols })),
  };
}

const avroNullable = (type) => ['null', type];
// A key that may be missing: Avro has no absent fields, so it is a null default; avsc writes the
// default for an undefined value and reads it back as null (fromAvro removes those nulls).
const avroOptional = (type) => ({ optionalField: true, type: ['null', type] });
const avroArray = (items) => ({ type: 'array', items });
const avroMap = (values) => ({ type: 'map', values });

// Deletes `key` where avsc gave null for a key the value did not have (see avroOptional).
function dropNull(object, key) {
  if (object[key] === null) delete object[key];
}

// ---- twitter.json ---------------------------------------------------------------------------
// A search result: 100 tweets, 73 of them retweets that carry the retweeted tweet. Status, media
// and search ids are 64-bit snowflakes above 2^53, which JSON.parse has already rounded (the
// exact value is only in the `*_str` twin): they are t.float64(), the one type that gives back
// exactly the number JSON.parse made (t.int() would reject them, t.int64() takes bigints).
// User ids are below 2^32 here but are 64-bit in Twitter's API, so t.int() (any safe integer).

function twitterShorn(t) {
  const snowflake = t.float64(); // see above: rounded by JSON.parse, kept as that double
  const indices = t.tuple([t.uint16(), t.uint16()]); // [start, end) offsets into the text
  const url = t.object({ url: t.string(), expanded_url: t.string(), display_url: t.string(), indices });
  const hashtag = t.object({ text: t.string(), indices });
  const size = t.object({ w: t.uint16(), h: t.uint16(), resize: t.enum(['fit', 'crop']) });
  const media = t.object({
    id: snowflake,
    id_str: t.string(),
    indices,
    media_url: t.string(),
    media_url_https: t.string(),
    url: t.string(),
    display_url: t.string(),
    expanded_url: t.string(),
    type: t.enum(['photo', 'video', 'animated_gif']),
    // Key order varies between tweets; objects decode in schema order (equal as values).
    sizes: t.object({ medium: size, small: size, thumb: size, large: size }),
    source_status_id: t.optional(snowflake), // media first posted in another tweet
    source_status_id_str: t.optional(t.string()),
  });
  const entities = t.object({
    hashtags: t.array(hashtag),
    symbols: t.array(hashtag), // cashtags, shaped like hashtags; always empty here
    urls: t.array(url),
    user_mentions: t.array(
      t.object({ screen_name: t.string(), name: t.string(), id: t.int(), id_str: t.string(), indices }),
    ),
    media: t.optional(t.array(media)),
  });
  const user = t.object({
    id: t.int(),
    id_str: t.string(),
    name: t.string(),
    screen_name: t.string(),
    location: t.string(),
    description: t.string(),
    url: t.nullable(t.string()),
    entities: t.object({
      url: t.optional(t.object({ urls: t.array(url) })), // only when the profile has a url
      description: t.object({ urls: t.array(url) }),
    }),
    protected: t.bool(),
    followers_count: t.uint32(),
    friends_count: t.uint32(),
    listed_count: t.uint32(),
    created_at: t.string(), // "Thu Oct 25 08:27:13 +0000 2012": not ISO, kept as text
    favourites_count: t.uint32(),
    utc_offset: t.nullable(t.int32()), // seconds
    time_zone: t.nullable(t.string()),
    geo_enabled: t.bool(),
    verified: t.bool(),
    statuses_count: t.uint32(),
    lang: t.string(), // an open set of language tags
    contributors_enabled: t.bool(),
    is_translator: t.bool(),
    is_translation_enabled: t.bool(),
    profile_background_color: t.string(),
    profile_background_image_url: t.string(),
    profile_background_image_url_https: t.string(),
    profile_background_tile: t.bool(),
    profile_image_url: t.string(),
    profile_image_url_https: t.string(),
    profile_banner_url: t.optional(t.string()),
    profile_link_color: t.string(),
    profile_sidebar_border_color: t.string(),
    profile_sidebar_fill_color: t.string(),
    profile_text_color: t.string(),
    profile_use_background_image: t.bool(),
    default_profile: t.bool(),
    default_profile_image: t.bool(),
    following: t.bool(),
    follow_request_sent: t.bool(),
    notifications: t.bool(),
  });
  // A retweet carries the retweeted tweet, which never carries another: two levels, not a
  // t.recursive (whose values the generated marshaller hands to the generic one).
  const tweet = (retweeted) =>
    t.object({
      metadata: t.object({ result_type: t.enum(['recent', 'popular', 'mixed']), iso_language_code: t.string() }),
      created_at: t.string(),
      id: snowflake,
      id_str: t.string(),
      text: t.string(),
      source: t.string(), // an HTML link to the client
      truncated: t.bool(),
      in_reply_to_status_id: t.nullable(snowflake),
      in_reply_to_status_id_str: t.nullable(t.string()),
      in_reply_to_user_id: t.nullable(t.int()),
      in_reply_to_user_id_str: t.nullable(t.string()),
      in_reply_to_screen_name: t.nullable(t.string()),
      user,
      // Always null in this corpus (objects in the API when set): nothing to encode.
      geo: t.null(),
      coordinates: t.null(),
      place: t.null(),
      contributors: t.null(),
      ...(retweeted ? { retweeted_status: t.optional(retweeted) } : {}),
      retweet_count: t.uint32(),
      favorite_count: t.uint32(),
      entities,
      favorited: t.bool(),
      retweeted: t.bool(),
      possibly_sensitive: t.optional(t.bool()), // only on tweets with links
      lang: t.string(),
    });
  return t.object({
    statuses: t.array(tweet(tweet(null))),
    search_metadata: t.object({
      completed_in: t.float64(), // seconds
      max_id: snowflake,
      max_id_str: t.string(),
      next_results: t.string(),
      query: t.string(),
      refresh_url: t.string(),
      count: t.uint8(), // at most 100
      since_id: snowflake,
      since_id_str: t.string(),
    }),
  });
}

function twitterAvro() {
  const def = avroNamer();
  const indices = avroArray('int'); // Avro has no tuple: a two-item array
  const url = () =>
    def.record('Url', { url: 'string', expanded_url: 'string', display_url: 'string', indices });
  const hashtag = () => def.record('Hashtag', { text: 'string', indices });
  const size = () => def.record('Size', { w: 'int', h: 'int', resize: def.enum('Resize', ['fit', 'crop']) });
  const urls = () => def.record('Urls', { urls: avroArray(url()) });
  const entities = () =>
    def.record('Entities', {
      hashtags: avroArray(hashtag()),
      symbols: avroArray(hashtag()),
      urls: avroArray(url()),
      user_mentions: avroArray(
        def.record('UserMention', { screen_name: 'string', name: 'string', id: 'long', id_str: 'string', indices }),
      ),
      media: avroOptional(
        avroArray(
          def.record('Media', {
            id: 'double',
            id_str: 'string',
            indices,
            media_url: 'string',
            media_url_https: 'string',
            url: 'string',
            display_url: 'string',
            expanded_url: 'string',
            type: def.enum('MediaType', ['photo', 'video', 'animated_gif']),
            sizes: def.record('Sizes', { medium: size(), small: size(), thumb: size(), large: size() }),
            source_status_id: avroOptional('double'),
            source_status_id_str: avroOptional('string'),
          }),
        ),
      ),
    });
  const user = () =>
    def.record('User', {
      id: 'long',
      id_str: 'string',
      name: 'string',
      screen_name: 'string',
      location: 'string',
      description: 'string',
      url: avroNullable('string'),
      entities: def.record('UserEntities', { url: avroOptional(urls()), description: urls() }),
      protected: 'boolean',
      followers_count: 'long',
      friends_count: 'long',
      listed_count: 'long',
      created_at: 'string',
      favourites_count: 'long',
      utc_offset: avroNullable('int'),
      time_zone: avroNullable('string'),
      geo_enabled: 'boolean',
      verified: 'boolean',
      statuses_count: 'long',
      lang: 'string',
      contributors_enabled: 'boolean',
      is_translator: 'boolean',
      is_translation_enabled: 'boolean',
      profile_background_color: 'string',
      profile_background_image_url: 'string',
      profile_background_image_url_https: 'string',
      profile_background_tile: 'boolean',
      profile_image_url: 'string',
      profile_image_url_https: 'string',
      profile_banner_url: avroOptional('string'),
      profile_link_color: 'string',
      profile_sidebar_border_color: 'string',
      profile_sidebar_fill_color: 'string',
      profile_text_color: 'string',
      profile_use_background_image: 'boolean',
      default_profile: 'boolean',
      default_profile_image: 'boolean',
      following: 'boolean',
      follow_request_sent: 'boolean',
      notifications: 'boolean',
    });
  const tweet = (name, retweeted) =>
    def.record(name, {
      metadata: def.record('Metadata', {
        result_type: def.enum('ResultType', ['recent', 'popular', 'mixed']),
        iso_language_code: 'string',
      }),
      created_at: 'string',
      id: 'double',
      id_str: 'string',
      text: 'string',
      source: 'string',
      truncated: 'boolean',
      in_reply_to_status_id: avroNullable('double'),
      in_reply_to_status_id_str: avroNullable('string'),
      in_reply_to_user_id: avroNullable('long'),
      in_reply_to_user_id_str: avroNullable('string'),
      in_reply_to_screen_name: avroNullable('string'),
      user: user(),
      geo: 'null',
      coordinates: 'null',
      place: 'null',
      contributors: 'null',
      ...(retweeted ? { retweeted_status: avroOptional(retweeted()) } : {}),
      retweet_count: 'long',
      favorite_count: 'long',
      entities: entities(),
      favorited: 'boolean',
      retweeted: 'boolean',
      possibly_sensitive: avroOptional('boolean'),
      lang: 'string',
    });
  return def.record('SearchResult', {
    statuses: avroArray(tweet('Tweet', () => tweet('RetweetedTweet', null))),
    search_metadata: def.record('SearchMetadata', {
      completed_in: 'double',
      max_id: 'double',
      max_id_str: 'string',
      next_results: 'string',
      query: 'string',
      refresh_url: 'string',
      count: 'int',
      since_id: 'double',
      since_id_str: 'string',
    }),
  });
}

function twitterFromAvro(value) {
  const tweet = (status) => {
    for (const key of ['retweeted_status', 'possibly_sensitive']) dropNull(status, key);
    dropNull(status.user, 'profile_banner_url');
    dropNull(status.user.entities, 'url');
    dropNull(status.entities, 'media');
    for (const media of status.entities.media || []) {
      dropNull(media, 'source_status_id');
      dropNull(media, 'source_status_id_str');
    }
    if (status.retweeted_status) tweet(status.retweeted_status);
  };
  value.statuses.forEach(tweet);
  return value;
}

// ---- citm_catalog.json ----------------------------------------------------------------------
// A concert hall's catalogue: id-keyed maps (records, as they are) and 243 performances. Ids
// are around 3e8 (uint32); `start` is epoch milliseconds (t.int(): a number, not a Date,
// since JSON.parse gives a number).

function citmShorn(t) {
  const id = t.uint32();
  const names = t.record(t.string()); // id -> display name
  return t.object({
    areaNames: names,
    audienceSubCategoryNames: names,
    blockNames: names, // empty here
    events: t.record(
      t.object({
        description: t.null(), // always null in this corpus, as are subjectCode and subtitle
        id,
        logo: t.nullable(t.string()),
        name: t.string(),
        subTopicIds: t.array(id),
        subjectCode: t.null(),
        subtitle: t.null(),
        topicIds: t.array(id),
      }),
    ),
    performances: t.array(
      t.object({
        eventId: id,
        id,
        logo: t.nullable(t.string()),
        name: t.null(), // always null, as is seatMapImage
        prices: t.array(t.object({ amount: t.uint32(), audienceSubCategoryId: id, seatCategoryId: id })),
        seatCategories: t.array(
          t.object({
            // blockIds is always empty; its items would be ids of blockNames.
            areas: t.array(t.object({ areaId: id, blockIds: t.array(id) })),
            seatCategoryId: id,
          }),
        ),
        seatMapImage: t.null(),
        start: t.int(),
        venueCode: t.string(), // a key of venueNames
      }),
    ),
    seatCategoryNames: names,
    subTopicNames: names,
    subjectNames: names, // empty here
    topicNames: names,
    topicSubTopics: t.record(t.array(id)), // topic id -> its sub-topic ids
    venueNames: names,
  });
}

function citmAvro() {
  const def = avroNamer();
  const names = avroMap('string'); // Avro maps have string keys: the id-keyed records
  const id = 'long'; // uint32 does not fit Avro int (signed 32-bit); these do, but ids are uint32
  return def.record('Catalog', {
    areaNames: names,
    audienceSubCategoryNames: names,
    blockNames: names,
    events: avroMap(
      def.record('Event', {
        description: 'null',
        id,
        logo: avroNullable('string'),
        name: 'string',
        subTopicIds: avroArray(id),
        subjectCode: 'null',
        subtitle: 'null',
        topicIds: avroArray(id),
      }),
    ),
    performances: avroArray(
      def.record('Performance', {
        eventId: id,
        id,
        logo: avroNullable('string'),
        name: 'null',
        prices: avroArray(def.record('Price', { amount: 'long', audienceSubCategoryId: id, seatCategoryId: id })),
        seatCategories: avroArray(
          def.record('SeatCategory', {
            areas: avroArray(def.record('Area', { areaId: id, blockIds: avroArray(id) })),
            seatCategoryId: id,
          }),
        ),
        seatMapImage: 'null',
        start: 'long',
        venueCode: 'string',
      }),
    ),
    seatCategoryNames: names,
    subTopicNames: names,
    subjectNames: names,
    topicNames: names,
    topicSubTopics: avroMap(avroArray(id)),
    venueNames: names,
  });
}

// ---- canada.json ----------------------------------------------------------------------------
// GeoJSON: one Feature, a Polygon of 480 rings of [lon, lat] float64 pairs.

function canadaShorn(t) {
  const position = t.tuple([t.float64(), t.float64()]); // [lon, lat]
  return t.object({
    type: t.literal('FeatureCollection'),
    features: t.array(
      t.object({
        type: t.literal('Feature'),
        properties: t.object({ name: t.string() }),
        geometry: t.object({ type: t.literal('Polygon'), coordinates: t.array(t.array(position)) }),
      }),
    ),
  });
}

function canadaAvro() {
  const def = avroNamer();
  // Avro has no constants: single-symbol enums cost one byte each and give the string back.
  return def.record('FeatureCollection', {
    type: def.enum('FeatureCollectionType', ['FeatureCollection']),
    features: avroArray(
      def.record('Feature', {
        type: def.enum('FeatureType', ['Feature']),
        properties: def.record('Properties', { name: 'string' }),
        geometry: def.record('Polygon', {
          type: def.enum('PolygonType', ['Polygon']),
          coordinates: avroArray(avroArray(avroArray('double'))), // no tuples: [lon, lat] arrays
        }),
      }),
    ),
  });
}

// ---- github_events.json ---------------------------------------------------------------------
// 30 events of the 2013 GitHub Events API: one envelope, and a payload whose shape depends on
// `type`, so a discriminatedUnion on `type` (which costs no bytes: the variant index says it).
// Ids fit uint32 (the event's own id is a numeric string, kept as the string it is). Closed
// string sets are enums with the values the API documented then; `action`s that had one value
// are literals. Fields that are always null here are t.null(); labels are always empty, so
// their item shape is the API's.

function githubShorn(t) {
  const id = t.uint32();
  const account = t.object({ gravatar_id: t.string(), login: t.string(), avatar_url: t.string(), url: t.string(), id });
  const user = t.object({
    url: t.string(),
    gists_url: t.string(),
    gravatar_id: t.string(),
    type: t.enum(['User', 'Organization']),
    avatar_url: t.string(),
    subscriptions_url: t.string(),
    organizations_url: t.string(),
    received_events_url: t.string(),
    repos_url: t.string(),
    login: t.string(),
    id,
    starred_url: t.string(),
    events_url: t.string(),
    followers_url: t.string(),
    following_url: t.string(),
  });
  const issue = t.object({
    user,
    url: t.string(),
    labels: t.array(t.object({ url: t.string(), name: t.string(), color: t.string() })),
    html_url: t.string(),
    labels_url: t.string(),
    // Null urls on an issue that is not a pull request (the only kind here).
    pull_request: t.object({ html_url: t.null(), patch_url: t.null(), diff_url: t.null() }),
    created_at: t.string(),
    closed_at: t.nullable(t.string()),
    milestone: t.null(),
    title: t.string(),
    body: t.string(),
    updated_at: t.string(),
    number: t.uint32(),
    state: t.enum(['open', 'closed']),
    assignee: t.nullable(user),
    id,
    events_url: t.string(),
    comments_url: t.string(),
    comments: t.uint32(),
  });
  const repository = t.object({
    description: t.string(),
    fork: t.bool(),
    url: t.string(),
    language: t.string(),
    stargazers_url: t.string(),
    clone_url: t.string(),
    tags_url: t.string(),
    full_name: t.string(),
    merges_url: t.string(),
    forks: t.uint32(),
    private: t.bool(),
    git_refs_url: t.string(),
    archive_url: t.string(),
    collaborators_url: t.string(),
    owner: user,
    languages_url: t.string(),
    trees_url: t.string(),
    labels_url: t.string(),
    html_url: t.string(),
    pushed_at: t.string(),
    created_at: t.string(),
    has_issues: t.bool(),
    forks_url: t.string(),
    branches_url: t.string(),
    commits_url: t.string(),
    notifications_url: t.string(),
    open_issues: t.uint32(),
    contents_url: t.string(),
    blobs_url: t.string(),
    issues_url: t.string(),
    compare_url: t.string(),
    issue_events_url: t.string(),
    name: t.string(),
    updated_at: t.string(),
    statuses_url: t.string(),
    forks_count: t.uint32(),
    assignees_url: t.string(),
    ssh_url: t.string(),
    public: t.bool(),
    has_wiki: t.bool(),
    subscribers_url: t.string(),
    mirror_url: t.null(),
    watchers_count: t.uint32(),
    id,
    has_downloads: t.bool(),
    git_commits_url: t.string(),
    downloads_url: t.string(),
    pulls_url: t.string(),
    homepage: t.nullable(t.string()),
    issue_comment_url: t.string(),
    hooks_url: t.string(),
    subscription_url: t.string(),
    milestones_url: t.string(),
    svn_url: t.string(),
    events_url: t.string(),
    git_tags_url: t.string(),
    teams_url: t.string(),
    comments_url: t.string(),
    open_issues_count: t.uint32(),
    keys_url: t.string(),
    git_url: t.string(),
    contributors_url: t.string(),
    size: t.uint32(), // KB
    watchers: t.uint32(),
  });
  const event = (type, payload) =>
    t.object({
      type: t.literal(type),
      created_at: t.string(),
      actor: account,
      repo: t.object({ url: t.string(), id, name: t.string() }),
      public: t.bool(),
      org: t.optional(account), // events in an organisation's repository
      payload: t.object(payload),
      id: t.string(),
    });
  return t.array(
    t.discriminatedUnion('type', [
      event('PushEvent', {
        commits: t.array(
          t.object({
            url: t.string(),
            message: t.string(),
            distinct: t.bool(),
            sha: t.string(),
            author: t.object({ email: t.string(), name: t.string() }),
          }),
        ),
        distinct_size: t.uint32(),
        ref: t.string(),
        push_id: t.uint32(),
        head: t.string(),
        before: t.string(),
        size: t.uint32(),
      }),
      event('WatchEvent', { action: t.literal('started') }),
      event('CreateEvent', {
        description: t.string(),
        master_branch: t.string(),
        ref: t.nullable(t.string()), // null when the repository itself was created
        ref_type: t.enum(['repository', 'branch', 'tag']),
      }),
      event('ForkEvent', { forkee: repository }),
      event('IssueCommentEvent', {
        issue,
        action: t.literal('created'),
        comment: t.object({
          user,
          url: t.string(),
          issue_url: t.string(),
          created_at: t.string(),
          body: t.string(),
          updated_at: t.string(),
          id,
        }),
      }),
      event('GollumEvent', {
        pages: t.array(
          t.object({
            page_name: t.string(),
            html_url: t.string(),
            title: t.string(),
            sha: t.string(),
            summary: t.null(),
            action: t.enum(['created', 'edited']),
          }),
        ),
      }),
      event('IssuesEvent', { issue, action: t.enum(['opened', 'closed', 'reopened']) }),
    ]),
  );
}

function githubAvro() {
  const def = avroNamer();
  const id = 'long';
  const account = () =>
    def.record('Account', { gravatar_id: 'string', login: 'string', avatar_url: 'string', url: 'string', id });
  const user = () =>
    def.record('User', {
      url: 'string',
      gists_url: 'string',
      gravatar_id: 'string',
      type: def.enum('UserType', ['User', 'Organization']),
      avatar_url: 'string',
      subscriptions_url: 'string',
      organizations_url: 'string',
      received_events_url: 'string',
      repos_url: 'string',
      login: 'string',
      id,
      starred_url: 'string',
      events_url: 'string',
      followers_url: 'string',
      following_url: 'string',
    });
  const issue = () =>
    def.record('Issue', {
      user: user(),
      url: 'string',
      labels: avroArray(def.record('Label', { url: 'string', name: 'string', color: 'string' })),
      html_url: 'string',
      labels_url: 'string',
      pull_request: def.record('PullRequestLinks', { html_url: 'null', patch_url: 'null', diff_url: 'null' }),
      created_at: 'string',
      closed_at: avroNullable('string'),
      milestone: 'null',
      title: 'string',
      body: 'string',
      updated_at: 'string',
      number: 'long',
      state: def.enum('IssueState', ['open', 'closed']),
      assignee: avroNullable(user()),
      id,
      events_url: 'string',
      comments_url: 'string',
      comments: 'long',
    });
  const s = 'string';
  const repository = () =>
    def.record('Repository', {
      description: s, fork: 'boolean', url: s, language: s, stargazers_url: s, clone_url: s, tags_url: s,
      full_name: s, merges_url: s, forks: 'long', private: 'boolean', git_refs_url: s, archive_url: s,
      collaborators_url: s, owner: user(), languages_url: s, trees_url: s, labels_url: s, html_url: s,
      pushed_at: s, created_at: s, has_issues: 'boolean', forks_url: s, branches_url: s, commits_url: s,
      notifications_url: s, open_issues: 'long', contents_url: s, blobs_url: s, issues_url: s, compare_url: s,
      issue_events_url: s, name: s, updated_at: s, statuses_url: s, forks_count: 'long', assignees_url: s,
      ssh_url: s, public: 'boolean', has_wiki: 'boolean', subscribers_url: s, mirror_url: 'null',
      watchers_count: 'long', id, has_downloads: 'boolean', git_commits_url: s, downloads_url: s, pulls_url: s,
      homepage: avroNullable(s), issue_comment_url: s, hooks_url: s, subscription_url: s, milestones_url: s,
      svn_url: s, events_url: s, git_tags_url: s, teams_url: s, comments_url: s, open_issues_count: 'long',
      keys_url: s, git_url: s, contributors_url: s, size: 'long', watchers: 'long',
    });
  // Each event is its own record; `type` is a one-symbol enum (one byte) that the logical type
  // of GITHUB_LOGICAL_TYPES reads to pick the union branch.
  const event = (type, payload) => ({
    ...def.record(type, {
      type: def.enum(`${type}Type`, [type]),
      created_at: 'string',
      actor: account(),
      repo: def.record('Repo', { url: 'string', id, name: 'string' }),
      public: 'boolean',
      org: avroOptional(account()),
      payload: def.record(`${type}Payload`, payload()),
      id: 'string',
    }),
    logicalType: 'github-event',
  });
  return avroArray([
    event('PushEvent', () => ({
      commits: avroArray(
        def.record('Commit', {
          url: 'string',
          message: 'string',
          distinct: 'boolean',
          sha: 'string',
          author: def.record('CommitAuthor', { email: 'string', name: 'string' }),
        }),
      ),
      distinct_size: 'long',
      ref: 'string',
      push_id: 'long',
      head: 'string',
      before: 'string',
      size: 'long',
    })),
    event('WatchEvent', () => ({ action: def.enum('WatchAction', ['started']) })),
    event('CreateEvent', () => ({
      description: 'string',
      master_branch: 'string',
      ref: avroNullable('string'),
      ref_type: def.enum('RefType', ['repository', 'branch', 'tag']),
    })),
    event('ForkEvent', () => ({ forkee: repository() })),
    event('IssueCommentEvent', () => ({
      issue: issue(),
      action: def.enum('IssueCommentAction', ['created']),
      comment: def.record('IssueComment', {
        user: user(),
        url: 'string',
        issue_url: 'string',
        created_at: 'string',
        body: 'string',
        updated_at: 'string',
        id,
      }),
    })),
    event('GollumEvent', () => ({
      pages: avroArray(
        def.record('WikiPage', {
          page_name: 'string',
          html_url: 'string',
          title: 'string',
          sha: 'string',
          summary: 'null',
          action: def.enum('WikiPageAction', ['created', 'edited']),
        }),
      ),
    })),
    event('IssuesEvent', () => ({ issue: issue(), action: def.enum('IssuesAction', ['opened', 'closed', 'reopened']) })),
  ]);
}

// avsc takes a union of records only as wrapped values ({ PushEvent: {...} }), since it cannot
// tell records apart by their JS type. A logical type on each event record makes it pick the
// branch from the plain value instead, as shorn's discriminatedUnion does: each branch takes
// only objects whose `type` is its own record name. avsc tries every branch per value (and
// checks the one that matches), which is part of what its encode costs here.
function githubLogicalTypes(avro) {
  class GithubEvent extends avro.types.LogicalType {
    constructor(schema, opts) {
      super(schema, opts);
      this.eventType = schema.name;
    }

    _toValue(value) {
      return value !== null && typeof value === 'object' && value.type === this.eventType ? value : undefined;
    }

    _fromValue(record) {
      return record;
    }
  }
  return { 'github-event': GithubEvent };
}

function githubFromAvro(events) {
  for (const event of events) dropNull(event, 'org');
  return events;
}

// ---- mesh.json ------------------------------------------------------------------------------
// A skinned 3D mesh as flat numeric arrays, kept as the plain arrays JSON.parse gives (the
// typed-array variant below is what an application that owns the data would send).

function meshShorn(t) {
  const range = t.tuple([t.uint32(), t.uint32()]); // [first, end)
  return t.object({
    batches: t.array(t.object({ indexRange: range, vertexRange: range, usedBones: t.array(t.uint16()) })),
    // Empty here; morph targets are named arrays of vertex positions, like `positions`.
    morphTargets: t.record(t.array(t.float64())),
    positions: t.array(t.float64()), // x, y, z per vertex; 12 significant digits, not float32
    tex0: t.array(t.float64()), // u, v per vertex
    colors: t.array(t.uint32()), // ARGB
    influences: t.array(t.tuple([t.float64(), t.uint16()])), // [weight, bone index] per vertex
    normals: t.array(t.float64()),
    indices: t.array(t.uint16()), // triangle corners: 3600 vertices, 16-bit indices
  });
}

// The same mesh with its flat arrays as typed arrays, as a renderer holds them.
function meshTypedShorn(t) {
  const range = t.tuple([t.uint32(), t.uint32()]);
  return t.object({
    batches: t.array(t.object({ indexRange: range, vertexRange: range, usedBones: t.array(t.uint16()) })),
    morphTargets: t.record(t.float64Array()),
    positions: t.float64Array(),
    tex0: t.float64Array(),
    colors: t.uint32Array(),
    influences: t.array(t.tuple([t.float64(), t.uint16()])),
    normals: t.float64Array(),
    indices: t.uint16Array(),
  });
}

function meshToTyped(mesh) {
  return {
    ...mesh,
    positions: Float64Array.from(mesh.positions),
    tex0: Float64Array.from(mesh.tex0),
    colors: Uint32Array.from(mesh.colors),
    normals: Float64Array.from(mesh.normals),
    indices: Uint16Array.from(mesh.indices),
  };
}

function meshAvro() {
  const def = avroNamer();
  const range = avroArray('long');
  return def.record('Mesh', {
    batches: avroArray(def.record('Batch', { indexRange: range, vertexRange: range, usedBones: avroArray('int') })),
    morphTargets: avroMap(avroArray('double')),
    positions: avroArray('double'),
    tex0: avroArray('double'),
    colors: avroArray('long'), // above Avro int's 2^31
    influences: avroArray(avroArray('double')), // a [weight, bone] pair: one item type
    normals: avroArray('double'),
    indices: avroArray('int'),
  });
}

// ---- gsoc-2018.json -------------------------------------------------------------------------
// 1,264 Google Summer of Code projects as schema.org JSON-LD, keyed "0".."1263": a record, as
// the file has it (not turned into an array). The JSON-LD `@context` and `@type` are
// constants, so literals that take no bytes.

function gsocShorn(t) {
  return t.record(
    t.object({
      '@context': t.literal('http://schema.org'),
      '@type': t.literal('SoftwareSourceCode'),
      name: t.string(),
      description: t.string(),
      sponsor: t.object({
        '@type': t.literal('Organization'),
        name: t.string(),
        disambiguatingDescription: t.string(),
        description: t.string(),
        url: t.string(),
        logo: t.string(),
      }),
      author: t.object({ '@type': t.literal('Person'), name: t.string() }),
    }),
  );
}

// Variant `k` of a gsoc-2018 document (benchmark/child.js --variants): every string but the
// JSON-LD constants (keys starting with '@') ends with ` v<k>`, so no two variants share a
// string, and each is as large as the file.
function gsocVariant(value, k) {
  const vary = (v) => {
    if (typeof v === 'string') return `${v} v${k}`;
    if (v === null || typeof v !== 'object') return v;
    const out = {};
    for (const key of Object.keys(v)) out[key] = key[0] === '@' ? v[key] : vary(v[key]);
    return out;
  };
  return vary(value);
}

// Avro names must match [A-Za-z_][A-Za-z0-9_]*, so `@context` and `@type` cannot be field
// names: avsc gets the same data with those two keys renamed (toAvro, before anything is
// timed, as an Avro user's own objects would already be named), and fromAvro names them back
// before the round-trip check. Nothing else changes.
const AVRO_KEYS = { '@context': 'context', '@type': 'type' };
const JSON_LD_KEYS = { context: '@context', type: '@type' };

function renameKeys(object, names) {
  const out = {};
  for (const key of Object.keys(object)) {
    const value = object[key];
    out[names[key] || key] = value !== null && typeof value === 'object' ? renameKeys(value, names) : value;
  }
  return out;
}

function gsocAvro() {
  const def = avroNamer();
  return avroMap(
    def.record('Project', {
      context: 'string', // not a valid enum symbol, so not a one-symbol enum
      type: def.enum('ProjectType', ['SoftwareSourceCode']),
      name: 'string',
      description: 'string',
      sponsor: def.record('Sponsor', {
        type: def.enum('SponsorType', ['Organization']),
        name: 'string',
        disambiguatingDescription: 'string',
        description: 'string',
        url: 'string',
        logo: 'string',
      }),
      author: def.record('Author', { type: def.enum('AuthorType', ['Person']), name: 'string' }),
    }),
  );
}

// ---- the list -------------------------------------------------------------------------------

const CORPORA = [
  {
    name: 'twitter',
    file: 'twitter.json',
    probe: (v) => v.statuses.length,
    shorn: twitterShorn,
    avsc: { schema: twitterAvro(), fromAvro: twitterFromAvro },
  },
  {
    name: 'citm_catalog',
    file: 'citm_catalog.json',
    probe: (v) => v.performances.length,
    shorn: citmShorn,
    avsc: { schema: citmAvro() },
  },
  {
    name: 'canada',
    file: 'canada.json',
    probe: (v) => v.features.length,
    shorn: canadaShorn,
    avsc: { schema: canadaAvro() },
  },
  {
    name: 'github_events',
    file: 'github_events.json',
    probe: (v) => v.length,
    shorn: githubShorn,
    avsc: { schema: githubAvro(), logicalTypes: githubLogicalTypes, fromAvro: githubFromAvro },
  },
  {
    name: 'mesh',
    file: 'mesh.json',
    probe: (v) => v.positions.length,
    shorn: meshShorn,
    avsc: { schema: meshAvro() },
  },
  {
    name: 'gsoc-2018',
    file: 'gsoc-2018.json',
    probe: (v) => v['1263'].name.length,
    vary: gsocVariant,
    shorn: gsocShorn,
    avsc: {
      schema: gsocAvro(),
      toAvro: (projects) => renameKeys(projects, AVRO_KEYS),
      fromAvro: (projects) => renameKeys(projects, JSON_LD_KEYS),
    },
  },
];

const CORPUS_NAMES = CORPORA.map((corpus) => corpus.name);

function corpus(name) {
  const found = CORPORA.find((c) => c.name === name);
  if (!found) throw new Error(`unknown corpus '${name}' (known: ${CORPUS_NAMES.join(', ')})`);
  return found;
}

// A fresh JSON.parse of the file on each call, so two loads never share an object.
function loadCorpus(name) {
  return JSON.parse(fs.readFileSync(path.join(DATA_DIR, corpus(name).file), 'utf8'));
}

module.exports = { CORPORA, CORPUS_NAMES, corpus, loadCorpus, meshTypedShorn, meshToTyped };
