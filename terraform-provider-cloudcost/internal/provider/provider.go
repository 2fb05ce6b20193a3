// Package provider is the cloudcost provider: its configuration, resources, data sources and ephemeral
// resources, each in a file of its own, on the client of internal/client.
package provider

import (
	"context"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// Address is the provider's source address; type names are `cloudcost_*`.
const Address = "registry.opentofu.org/cloudcost/cloudcost"

// settingEnv is each configuration attribute's environment fallback: the names the Pulumi providers read
// (provider/src/runtime/settings.ts SETTINGS_ENV), so one shell configures every door.
var settingEnv = map[string]string{
	"api_url":       "CLOUDCOST_API_URL",
	"auth_url":      "CLOUDCOST_AUTH_URL",
	"api_token":     "CLOUDCOST_API_TOKEN",
	"client_id":     "CLOUDCOST_CLIENT_ID",
	"client_secret": "CLOUDCOST_CLIENT_SECRET",
}

// envCreateKeyScope is create_key_scope's fallback (see create_key.go).
const envCreateKeyScope = "CLOUDCOST_CREATE_KEY_SCOPE"

type cloudcostProvider struct {
	version string
}

// New returns the provider factory providerserver.Serve and the acceptance tests use.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &cloudcostProvider{version: version} }
}

type providerModel struct {
	APIURL         types.String `tfsdk:"api_url"`
	APIToken       types.String `tfsdk:"api_token"`
	ClientID       types.String `tfsdk:"client_id"`
	ClientSecret   types.String `tfsdk:"client_secret"`
	AuthURL        types.String `tfsdk:"auth_url"`
	CreateKeyScope types.String `tfsdk:"create_key_scope"`
}

// providerData is what Configure hands every resource, data source and ephemeral resource.
type providerData struct {
	client   *client.Client
	keys     *CreateKeys
	listings *readListings
}

func (p *cloudcostProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "cloudcost"
	resp.Version = p.version
}

func (p *cloudcostProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The cloudcost provider: which API to reach and with which credentials. Every setting falls back to its " +
			"CLOUDCOST_* environment variable, the names the Pulumi providers read; set the secrets there to keep them out of " +
			"configuration files.",
		Attributes: map[string]schema.Attribute{
			"api_url": schema.StringAttribute{
				Optional:    true,
				Description: "The API base URL, ending in /api/v1 (a bare origin is completed). When not set: the CLOUDCOST_API_URL environment variable.",
			},
			"api_token": schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "An API token (bearer); wins over client credentials when both are set. When not set: the CLOUDCOST_API_TOKEN environment variable.",
			},
			"client_id": schema.StringAttribute{
				Optional:    true,
				Description: "OAuth client id for the client-credentials grant (with client_secret). When not set: the CLOUDCOST_CLIENT_ID environment variable.",
			},
			"client_secret": schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "OAuth client secret for the client-credentials grant. When not set: the CLOUDCOST_CLIENT_SECRET environment variable.",
			},
			"auth_url": schema.StringAttribute{
				Optional:    true,
				Description: "The OAuth authorization server's origin; default: the origin of api_url. When not set: the CLOUDCOST_AUTH_URL environment variable.",
			},
			"create_key_scope": schema.StringAttribute{
				Optional: true,
				Description: "The name of this configuration in the prefix of its create keys, by which cloudcost-unmanaged lists what " +
					"an interrupted apply left (see the README, \"If tofu apply is interrupted\"); default: the root module's directory and " +
					"the selected workspace (the workspace is part of the prefix either way). Set it when a retry may run from another directory " +
					"(a CI job checking out to a fresh path); never give two configurations applied side by side the same scope. It never makes " +
					"two creates share an object. When not set: the CLOUDCOST_CREATE_KEY_SCOPE environment variable.",
			},
		},
	}
}

// setting is the configured value, else its environment variable, trimmed; "" when neither is set.
func setting(value types.String, name string) string {
	if !value.IsNull() && !value.IsUnknown() && strings.TrimSpace(value.ValueString()) != "" {
		return strings.TrimSpace(value.ValueString())
	}
	return strings.TrimSpace(os.Getenv(settingEnv[name]))
}

// sourceOf names where a setting's value came from, for messages about what it points at: the attribute, or
// its environment variable when the attribute is not set.
func sourceOf(value types.String, name string) string {
	if !value.IsNull() && !value.IsUnknown() && strings.TrimSpace(value.ValueString()) != "" {
		return "the provider's " + name
	}
	return settingEnv[name] + " (the provider's " + name + " is not set)"
}

// both names an attribute with its environment fallback, as the messages do.
func both(name string) string { return name + " (or " + settingEnv[name] + ")" }

func (p *cloudcostProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// A setting computed from a resource not yet created: the provider is configured again at apply.
	for _, v := range []types.String{m.APIURL, m.APIToken, m.ClientID, m.ClientSecret, m.AuthURL, m.CreateKeyScope} {
		if v.IsUnknown() {
			return
		}
	}
	data, ok := configure(m, p.version, &resp.Diagnostics)
	if !ok {
		return
	}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
}

// configure resolves the settings (configuration first, then CLOUDCOST_*) and refuses a wrong URL or
// missing credentials with a diagnostic on the attribute, naming it and its environment variable.
func configure(m providerModel, version string, diags diagAdder) (*providerData, bool) {
	raw := setting(m.APIURL, "api_url")
	if raw == "" {
		diags.AddAttributeError(path.Root("api_url"), "API URL not set",
			both("api_url")+" is not set: it is the API base URL ending in /api/v1, such as https://cloudcost.example.com/api/v1")
		return nil, false
	}
	apiURL, err := client.NormaliseAPIURL(raw, both("api_url"))
	if err != nil {
		diags.AddAttributeError(path.Root("api_url"), "Wrong API URL", err.Error())
		return nil, false
	}
	opts := client.Options{BaseURL: apiURL, UserAgent: "terraform-provider-cloudcost/" + version, BaseURLSetting: sourceOf(m.APIURL, "api_url")}
	if token := setting(m.APIToken, "api_token"); token != "" {
		opts.APIToken = token
	} else {
		opts.ClientID = setting(m.ClientID, "client_id")
		opts.ClientSecret = setting(m.ClientSecret, "client_secret")
		switch {
		case opts.ClientID != "" && opts.ClientSecret == "":
			diags.AddAttributeError(path.Root("client_secret"), "Client secret not set",
				"client_id is set, so "+both("client_secret")+" is needed too")
			return nil, false
		case opts.ClientID == "" && opts.ClientSecret != "":
			diags.AddAttributeError(path.Root("client_id"), "Client id not set",
				"client_secret is set, so "+both("client_id")+" is needed too")
			return nil, false
		case opts.ClientID == "":
			diags.AddAttributeError(path.Root("api_token"), "No credentials",
				"no credentials: set "+both("api_token")+", or "+both("client_id")+" and "+both("client_secret"))
			return nil, false
		}
		if authURL := setting(m.AuthURL, "auth_url"); authURL != "" {
			origin, err := authOrigin(authURL)
			if err != nil {
				diags.AddAttributeError(path.Root("auth_url"), "Wrong auth URL", both("auth_url")+" "+err.Error())
				return nil, false
			}
			opts.AuthURL = origin
		}
	}
	c, err := client.New(opts)
	if err != nil {
		diags.AddError("Provider configuration refused", err.Error())
		return nil, false
	}
	scope := strings.TrimSpace(m.CreateKeyScope.ValueString())
	if scope == "" {
		scope = strings.TrimSpace(os.Getenv(envCreateKeyScope))
	}
	keys, err := NewCreateKeys(scope)
	if err != nil {
		diags.AddAttributeError(path.Root("create_key_scope"), "No create key scope", err.Error())
		return nil, false
	}
	return &providerData{client: c, keys: keys, listings: newReadListings(c)}, true
}

func (p *cloudcostProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{NewCloudGroupResource, NewBudgetAlertResource, NewScheduledReportResource}
}

func (p *cloudcostProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewCostSummaryDataSource,
		NewCostByServiceDataSource,
		NewCostByDayDataSource,
		NewCostForecastDataSource,
		NewCostComparisonDataSource,
		NewAccountsDataSource,
		NewWebhookSigningSecretDataSource,
	}
}

func (p *cloudcostProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{NewWebhookSigningSecretEphemeralResource}
}

var (
	_ provider.Provider                       = (*cloudcostProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*cloudcostProvider)(nil)
)
