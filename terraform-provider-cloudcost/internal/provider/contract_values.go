package provider

// The contract's closed lists, as api/openapi.json states them (contract_values_test.go holds each one to the
// document, so a value added to the contract and not here fails a test instead of a user's plan).

var currencyCodes = []string{
	"AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BHD", "BIF",
	"BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CLP", "CNY", "COP", "CRC",
	"CUC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL",
	"GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HRK", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR",
	"ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR",
	"LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MYR",
	"MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR",
	"RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL", "SOS", "SRD", "SSP",
	"STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD",
	"UYU", "UZS", "VES", "VND", "VUV", "WST", "XAF", "XCD", "XCG", "XDR", "XOF", "XPF", "XSU", "YER", "ZAR", "ZMW",
	"ZWG", "ZWL",
}

var serviceNames = []string{
	"Amazon EC2", "Amazon S3", "Amazon RDS", "AWS Lambda", "Amazon CloudFront", "Amazon DynamoDB", "Virtual Machines",
	"Storage Accounts", "Azure SQL Database", "App Service", "Azure Cosmos DB", "Azure Functions",
}

var regionNames = []string{
	"global", "us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "ca-west-1", "mx-central-1",
	"sa-east-1", "eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1", "eu-central-2", "eu-north-1", "eu-south-1",
	"eu-south-2", "ap-south-1", "ap-south-2", "ap-east-1", "ap-southeast-1", "ap-southeast-2", "ap-southeast-3",
	"ap-southeast-4", "ap-southeast-5", "ap-southeast-7", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
	"me-south-1", "me-central-1", "il-central-1", "af-south-1", "us-gov-west-1", "us-gov-east-1", "eastus", "eastus2",
	"westus", "westus2", "westus3", "centralus", "northcentralus", "southcentralus", "westcentralus", "canadacentral",
	"canadaeast", "brazilsouth", "mexicocentral", "northeurope", "westeurope", "uksouth", "ukwest", "francecentral",
	"germanywestcentral", "norwayeast", "swedencentral", "switzerlandnorth", "polandcentral", "italynorth",
	"spaincentral", "eastasia", "southeastasia", "japaneast", "japanwest", "koreacentral", "australiaeast",
	"australiasoutheast", "centralindia", "southindia", "westindia", "uaenorth", "southafricanorth", "qatarcentral",
	"israelcentral", "newzealandnorth",
}

var cloudProviders = []string{"aws", "azure"}

var thresholdBases = []string{"actual", "forecast"}

var budgetPeriods = []string{"monthly", "quarterly", "annual"}

var reportKinds = []string{"summary", "services", "daily", "forecast", "comparison", "budget_status"}

var reportFormats = []string{"csv", "pdf"}

var frequencies = []string{"daily", "weekly", "monthly"}

var daysOfWeek = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
